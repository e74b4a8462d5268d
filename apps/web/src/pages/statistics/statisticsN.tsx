import Dashboard from '../../features/stats/Dashboard';

/** Statistics analysis of elderly-care institutions (SPEC §2 statisticsN, type 004): older adults only. */
export default function StatisticsN() {
  return <Dashboard variant="elderly" />;
}
