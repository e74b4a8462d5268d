import { Alert, App as AntApp } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import type { ImportTemplate } from '@xinli/contract';
import { call, download } from '../../api';
import { ImportDialog, ImportProblems } from '../../components/transfer/ImportDialog';
import { useT } from '../../i18n/useT';

/** The import action of each template (README "Person imports" says which population each serves). */
export const IMPORT_ACTIONS = {
  ZLB: 'as.m.cuser.importZLBCUserFromExcel',
  ZNB: 'as.m.cuser.importZNBCUserFromExcel',
  ZAB: 'as.m.cuser.importZABCUserFromExcel',
} as const;

/** Rosters of up to 50,000 rows: about 12 MB of .xlsx. */
const MAX_ROSTER_BYTES = 12_000_000;

/**
 * Import persons from one template: every row is checked first and each bad one named (row,
 * column, reason); the commit stores all rows or none.
 */
export default function PersonImportDialog({
  template,
  title,
  musercode,
  onClose,
}: {
  template: ImportTemplate | null;
  title: string;
  musercode?: string;
  onClose: () => void;
}) {
  const { message } = AntApp.useApp();
  const queryClient = useQueryClient();
  const k = useT('archives.person');
  if (!template) return null;
  const action = IMPORT_ACTIONS[template];
  return (
    <ImportDialog
      key={template}
      title={title}
      help={k('importHelp')}
      width={720}
      maxBytes={MAX_ROSTER_BYTES}
      template={() => download('as.m.cuser.getCUserImportTemplate', { template }, `${title}.xlsx`)}
      preview={(file) => call(action, { mode: 'preview', ...file, musercode })}
      commit={async (file) => {
        const r = await call(action, { mode: 'commit', ...file, musercode });
        message.success(k('imported', { count: r.imported }));
        await queryClient.invalidateQueries({ queryKey: ['as.m.cuser.getCUserPageList'] });
        await queryClient.invalidateQueries({ queryKey: ['as.m.cuser.getCUserArchivePageList'] });
      }}
      canCommit={(p) => p.total > 0}
      testid="import"
      onClose={onClose}
    >
      {(p) =>
        p.problemcount ? (
          <>
            <Alert type="error" showIcon title={k('previewBad', { count: p.total, bad: p.problemcount })} style={{ marginBottom: 8 }} />
            <ImportProblems problems={p.problems} testid="import" />
          </>
        ) : (
          <Alert type="success" showIcon title={k('previewOk', { count: p.total })} data-testid="import-ok" />
        )
      }
    </ImportDialog>
  );
}
