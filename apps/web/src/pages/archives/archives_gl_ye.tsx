import { PopulationApp } from '@xinli/contract';
import ArchiveList from './ArchiveList';

/** Archives of the students population (SPEC §2 /archives/archives_gl_ye). */
export default function ArchivesPage() {
  return <ArchiveList appid={PopulationApp.students} />;
}
