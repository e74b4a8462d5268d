import ArchiveDetail from './ArchiveDetail';

/** One person's archive (SPEC §2 archive detail page; the person comes in ?cusercode=). */
export default function ArchivePage() {
  return <ArchiveDetail />;
}
