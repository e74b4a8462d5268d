import { PopulationApp } from '@xinli/contract';
import ArchiveList from './ArchiveList';

/** Archives of the workingAdults population (SPEC §2 /archives/archives_gl_yg). */
export default function ArchivesPage() {
  return <ArchiveList appid={PopulationApp.workingAdults} />;
}
