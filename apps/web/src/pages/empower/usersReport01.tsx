import { PopulationApp } from '@xinli/contract';
import ReportList from './ReportList';

/**
 * Maternity 1.0 (SPEC §2 usersReport01, code 000032): the maternity reports in the list's 1.0
 * shape, one flat list of every pregnant or postpartum woman's reports newest first, without the
 * stage tabs and the anxiety/depression view of the maternity report page (usersReport2).
 */
export default function ReportsPage() {
  return <ReportList appid={PopulationApp.maternity} flat />;
}
