import PersonList from './PersonList';

/** Individual management: persons of every population (SPEC §2 /empower/individualAssessment). */
export default function IndividualAssessment() {
  return <PersonList />;
}
