import { useState } from 'react';
import { Button, Dropdown, Space } from 'antd';
import { FileExcelOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Gender, importTemplates, type ImportTemplate } from '@xinli/contract';
import { call, download } from '../../api';
import { useAccess } from '../../components/access';
import { ExportButton } from '../../components/transfer';
import { f, useConfirmCall, useListPage, type Filters, type ListPageOptions } from '../../components/list';
import { useApps } from '../../components/pickers';
import PersonImportDialog, { IMPORT_ACTIONS } from './PersonImportDialog';

const TEMPLATES = Object.keys(importTemplates) as ImportTemplate[];

/**
 * Deleting a person: asks first, and when the person has reports says how many and that the
 * audit trail stays.
 */
export function useDeletePerson() {
  const { t } = useTranslation();
  const confirm = useConfirmCall();
  return async (p: { cusercode: string; realname: string }) => {
    const counts = await call('as.m.cuser.getReportCount', { cusercodes: [p.cusercode] }).catch(() => []);
    const count = counts[0]?.total ?? 0;
    return confirm({
      action: 'as.m.cuser.deleteCUser',
      input: { cusercode: p.cusercode },
      content: count
        ? t('archives.person.deleteWithReports', { name: p.realname, count })
        : t('archives.person.deleteConfirm', { name: p.realname }),
      success: t('common.deleted'),
      danger: true,
      invalidates: ['as.m.cuser.getCUserPageList', 'as.m.cuser.getCUserArchivePageList'],
    });
  };
}

/**
 * The import and export buttons of a person or archive list: the import of the page's population
 * (or a choice of the three on an all-populations page), and the export of the filtered list.
 */
export function PersonTransfer({ appid, filters }: { appid?: string; filters: Filters }) {
  const { t } = useTranslation();
  const { can } = useAccess();
  const apps = useApps();
  const [open, setOpen] = useState<ImportTemplate | null>(null);
  const templates = TEMPLATES.filter((tp) => (!appid || importTemplates[tp] === appid) && can(IMPORT_ACTIONS[tp]));
  const name = (tp: ImportTemplate) => apps.nameOf(importTemplates[tp]);
  const exportInput = { ...filters, ...(appid ? { appid } : {}) } as Record<string, string>;
  return (
    <Space wrap size={8}>
      {templates.length === 1 ? (
        <Button icon={<UploadOutlined />} onClick={() => setOpen(templates[0])} data-testid="person-import-open">
          {t('archives.person.import')}
        </Button>
      ) : templates.length > 1 ? (
        <Dropdown menu={{ items: templates.map((tp) => ({ key: tp, label: name(tp), onClick: () => setOpen(tp) })) }}>
          <Button icon={<UploadOutlined />} data-testid="person-import-open">
            {t('archives.person.import')}
          </Button>
        </Dropdown>
      ) : null}
      {templates.length > 0 && can('as.m.cuser.getCUserImportTemplate') && (
        <Dropdown
          menu={{
            items: templates.map((tp) => ({
              key: tp,
              label: name(tp),
              onClick: () =>
                void download('as.m.cuser.getCUserImportTemplate', { template: tp }, `${name(tp)}.xlsx`).catch(() => undefined),
            })),
          }}
        >
          <Button icon={<FileExcelOutlined />}>{t('archives.person.templates')}</Button>
        </Dropdown>
      )}
      <ExportButton action="as.m.cuser.exportCuserList" input={exportInput} filename={`${t('archives.person.exportName')}.xlsx`} />
      <PersonImportDialog
        template={open}
        title={open ? t('archives.person.importTitle', { name: name(open) }) : ''}
        onClose={() => setOpen(null)}
      />
    </Space>
  );
}

const PERSONS = 'as.m.cuser.getCUserPageList';
const ARCHIVES = 'as.m.cuser.getCUserArchivePageList';

/**
 * The list of an /empower persons page or an /archives page, for one population (`appid`) or
 * all: the same filters, and a change on one refreshes the other.
 */
export function usePersonListPage<N extends typeof PERSONS | typeof ARCHIVES>(action: N, appid?: string) {
  return useListPage(action, {
    resource: 'archives.person',
    filters: [
      f.text('realname', { maxLength: 50 }),
      f.enumOf('gender', Gender, { width: 110 }),
      // Whole numbers only: phone and ID numbers are stored sealed and found by their blind index.
      f.text('phonenumber', { maxLength: 11, width: 150 }),
      f.text('idcard', { maxLength: 18, width: 190 }),
      ...(appid ? [] : [f.app()]),
      f.dateRange('createdat', ['startdate', 'enddate']),
      f.institution(),
    ],
    input: (appid ? { appid } : {}) as ListPageOptions<N>['input'],
    invalidates: [action === PERSONS ? ARCHIVES : PERSONS],
  });
}

/** The "register a person" button of the person lists (ListView's `add`). */
export const addPersonButton = (label: string, onClick: () => void) => ({
  action: 'as.m.cuser.insertCUser' as const,
  onClick,
  label,
  testId: 'person-add',
});
