import { PopulationApp } from '@xinli/contract';
import ReportList from './ReportList';

/** Reports of the olderAdults population (SPEC §2 usersReport4). */
export default function ReportsPage() {
  return <ReportList appid={PopulationApp.olderAdults} />;
}
