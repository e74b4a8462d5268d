import { PopulationApp } from '@xinli/contract';
import ReportList from './ReportList';

/** Reports of the workingAdults population (SPEC §2 usersReport3). */
export default function ReportsPage() {
  return <ReportList appid={PopulationApp.workingAdults} />;
}
