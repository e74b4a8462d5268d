import { PopulationApp } from '@xinli/contract';
import PersonList from './PersonList';

/** Persons of the olderAdults population and the assessments given to them (SPEC §2 /empower/theOld). */
export default function EmpowerPage() {
  return <PersonList appid={PopulationApp.olderAdults} />;
}
