import Dashboard from '../../features/stats/Dashboard';

/** Statistics analysis (SPEC §2 statistics1 /statistics/statistics, 00011): every population in scope. */
export default function Statistics() {
  return <Dashboard variant="general" />;
}
