import ArchiveList from './ArchiveList';

/** Archives of every population (SPEC §2 /archives/archives_gl_all). */
export default function AllArchives() {
  return <ArchiveList />;
}
