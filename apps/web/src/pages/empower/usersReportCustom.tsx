import { PopulationApp } from '@xinli/contract';
import ReportList from './ReportList';

/** Reports of the custom-report app 000000005 (SPEC §2 usersReportCustom). */
export default function ReportsPage() {
  return <ReportList appid={PopulationApp.customReport} />;
}
