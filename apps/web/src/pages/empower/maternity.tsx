import { PopulationApp } from '@xinli/contract';
import PersonList from './PersonList';

/** Persons of the maternity population and the assessments given to them (SPEC §2 /empower/maternity). */
export default function EmpowerPage() {
  return <PersonList appid={PopulationApp.maternity} />;
}
