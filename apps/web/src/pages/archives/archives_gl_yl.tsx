import { PopulationApp } from '@xinli/contract';
import ArchiveList from './ArchiveList';

/** Archives of the olderAdults population (SPEC §2 /archives/archives_gl_yl). */
export default function ArchivesPage() {
  return <ArchiveList appid={PopulationApp.olderAdults} />;
}
