import { PopulationApp } from '@xinli/contract';
import PersonList from './PersonList';

/** Persons of the workingAdults population and the assessments given to them (SPEC §2 /empower/highPressure). */
export default function EmpowerPage() {
  return <PersonList appid={PopulationApp.workingAdults} />;
}
