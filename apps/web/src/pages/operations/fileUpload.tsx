import { useState } from 'react';
import { Form, Modal, Select, Tag, Tooltip } from 'antd';
import { fileLimits, fileUses, type FileRow, type FileUse } from '@xinli/contract';
import { Can } from '../../components/access';
import { f, ListView, useListPage } from '../../components/list';
import { InstitutionSelect, useInstitutions } from '../../components/pickers';
import { FilePreview, UploadButton } from '../../components/upload';
import { useQueryClient } from '@tanstack/react-query';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.access.getFilePage';

/** A size in B, KB or MB. */
export function sizeText(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 102.4) / 10} KB`;
  return `${Math.round(n / 1024 / 102.4) / 10} MB`;
}

/**
 * File upload (fileUpload, 00030): the files of the caller's institutions. Upload one for a use
 * (its content must be of that kind: the server checks), preview it as a respondent would see it,
 * delete it unless content uses it.
 */
export default function FileUpload() {
  const k = useT('operations.file');
  const institutions = useInstitutions();
  const queryClient = useQueryClient();
  const [use, setUse] = useState<FileUse>('image');
  const [owner, setOwner] = useState<string | undefined>();
  const [preview, setPreview] = useState<FileRow | null>(null);

  const uses = fileUses.map((v) => ({ value: v, label: k(`useNames.${v}`) }));
  const list = useListPage(LIST, {
    resource: 'operations.file',
    filters: [f.text('filename', { maxLength: 200, width: 180 }), f.select('use', uses, { width: 120 }), f.institution()],
  });
  const col = list.colFor<FileRow>();

  return (
    <ListView<FileRow>
      list={list}
      rowKey="fileid"
      actions={
        <Can action="as.m.access.updateToOSS">
          <Form layout="inline" className="file-upload-bar">
            <Form.Item label={k('uploadAs')} style={{ marginInlineEnd: 8 }}>
              <Select<FileUse>
                value={use}
                onChange={setUse}
                options={uses}
                style={{ width: 110 }}
                data-testid="file-use"
                aria-label={k('uploadAs')}
              />
            </Form.Item>
            {institutions.many && (
              <Form.Item style={{ marginInlineEnd: 8 }}>
                <InstitutionSelect value={owner} onChange={setOwner} allowClear style={{ width: 180 }} placeholder={k('owner')} />
              </Form.Item>
            )}
            <UploadButton
              use={use}
              musercode={owner}
              testId="file-upload"
              onUploaded={() => void queryClient.invalidateQueries({ queryKey: [LIST] })}
            >
              {k('upload', { mb: Math.round(fileLimits[use] / 1024 / 1024) })}
            </UploadButton>
          </Form>
        </Can>
      }
      columns={[
        col.text('filename', {
          width: 200,
          render: (v: string, r) =>
            r.status === 'ready' ? (
              <a onClick={() => setPreview(r)} data-testid={`file-open-${r.fileid}`}>
                {r.contenttype.startsWith('image/') && <img src={r.url} alt="" className="file-thumb" />}
                {v}
              </a>
            ) : (
              v
            ),
        }),
        col.text('use', { width: 90, render: (v: FileUse) => <Tag variant="filled">{k(`useNames.${v}`)}</Tag> }),
        col.text('contenttype', {
          width: 150,
          render: (v: string, r) => (r.status === 'pending' ? <Tag color="orange">{k('pending')}</Tag> : v),
        }),
        col.text('size', { width: 90, align: 'right', render: (v: number) => sizeText(v) }),
        col.text('uses', { width: 80, align: 'right' }),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.time('createdat'),
        col.actions(
          (r) => [
            {
              key: 'preview',
              label: k('preview'),
              hidden: r.status !== 'ready',
              onClick: () => setPreview(r),
              testId: `file-preview-${r.fileid}`,
            },
            r.uses > 0
              ? {
                  key: 'delete',
                  action: 'as.m.access.deleteFile',
                  danger: true,
                  disabled: true,
                  tooltip: k('inUse', { count: r.uses }),
                  onClick: () => undefined,
                }
              : col.remove('as.m.access.deleteFile', { fileid: r.fileid }, r.filename, { testId: `file-delete-${r.fileid}` }),
          ],
          { width: 110 },
        ),
      ]}
    >
      <Modal open={!!preview} title={preview?.filename} footer={null} onCancel={() => setPreview(null)} width={720} destroyOnHidden>
        {preview && (
          <div className="file-preview">
            <FilePreview file={preview} height={480} />
            <p className="file-preview-meta">
              <Tooltip title={preview.url}>
                <a href={preview.url} target="_blank" rel="noopener noreferrer">
                  {k('openNew')}
                </a>
              </Tooltip>
              {' · '}
              {preview.contenttype} · {sizeText(preview.size)}
            </p>
          </div>
        )}
      </Modal>
    </ListView>
  );
}
