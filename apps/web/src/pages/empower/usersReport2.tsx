import { PopulationApp } from '@xinli/contract';
import ReportList from './ReportList';

/** Reports of the maternity population (SPEC §2 usersReport2). */
export default function ReportsPage() {
  return <ReportList appid={PopulationApp.maternity} />;
}
