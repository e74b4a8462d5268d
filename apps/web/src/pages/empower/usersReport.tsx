import { PopulationApp } from '@xinli/contract';
import ReportList from './ReportList';

/** Reports of the students population (SPEC §2 usersReport). */
export default function ReportsPage() {
  return <ReportList appid={PopulationApp.students} />;
}
