import { useState } from 'react';
import { App as AntApp, Button, Dropdown, Tag, Typography } from 'antd';
import { DownloadOutlined, UserDeleteOutlined } from '@ant-design/icons';
import type { CuserRow } from '@xinli/contract';
import { download } from '../../api';
import { Can } from '../../components/access';
import { useConfirmCall } from '../../components/list';
import { useT } from '../../i18n/useT';

/** The "anonymised" mark beside a person's name (erasure, issue 30 §5). */
export function AnonymisedTag({ person }: { person: Pick<CuserRow, 'anonymisedat'> }) {
  const k = useT('archives.rights');
  return person.anonymisedat ? (
    <Tag color="default" data-testid="person-anonymised">
      {k('anonymised')}
    </Tag>
  ) : null;
}

/**
 * A person's rights over their record (PIPL Arts. 45, 47): the export of the whole record as PDF
 * or JSON, and the erasure (anonymisation) after a confirmation naming what it removes for good.
 */
export default function PersonRights({ person }: { person: CuserRow }) {
  const k = useT('archives.rights');
  const { message } = AntApp.useApp();
  const confirm = useConfirmCall();
  const [busy, setBusy] = useState(false);
  const exportAs = async (format: 'json' | 'pdf') => {
    setBusy(true);
    try {
      await download('as.m.cuser.exportPersonRecord', { cusercode: person.cusercode, format }, `${k('fileName')}-${person.cusercode}.${format}`);
    } catch (err) {
      message.error(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  const anonymise = () =>
    confirm({
      action: 'as.m.cuser.anonymiseCUser',
      input: { cusercode: person.cusercode },
      title: k('confirmTitle', { name: person.realname }),
      content: (
        <div data-testid="anonymise-confirm">
          <Typography.Paragraph>{k('confirmRemoves')}</Typography.Paragraph>
          <Typography.Paragraph>{k('confirmKeeps')}</Typography.Paragraph>
          <Typography.Paragraph strong type="danger">
            {k('confirmFinal')}
          </Typography.Paragraph>
        </div>
      ),
      success: k('done'),
      okText: k('anonymise'),
      danger: true,
      invalidates: ['as.m.cuser.getCUserArchive', 'as.m.cuser.getCUserPageList', 'as.m.cuser.getCUserArchivePageList'],
    });
  return (
    <>
      <Can action="as.m.cuser.exportPersonRecord">
        <Dropdown
          menu={{
            items: [
              { key: 'pdf', label: k('pdf'), onClick: () => void exportAs('pdf') },
              { key: 'json', label: k('json'), onClick: () => void exportAs('json') },
            ],
          }}
        >
          <Button icon={<DownloadOutlined />} loading={busy} data-testid="record-export">
            {k('export')}
          </Button>
        </Dropdown>
      </Can>
      {!person.anonymisedat && (
        <Can action="as.m.cuser.anonymiseCUser">
          <Button danger icon={<UserDeleteOutlined />} onClick={() => void anonymise()} data-testid="person-anonymise">
            {k('anonymise')}
          </Button>
        </Can>
      )}
    </>
  );
}
