import { PopulationApp } from '@xinli/contract';
import ArchiveList from './ArchiveList';

/** Archives of the maternity population (SPEC §2 /archives/archives_gl_yf). */
export default function ArchivesPage() {
  return <ArchiveList appid={PopulationApp.maternity} />;
}
