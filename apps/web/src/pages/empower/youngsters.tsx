import { PopulationApp } from '@xinli/contract';
import PersonList from './PersonList';

/** Persons of the students population and the assessments given to them (SPEC §2 /empower/youngsters). */
export default function EmpowerPage() {
  return <PersonList appid={PopulationApp.students} />;
}
