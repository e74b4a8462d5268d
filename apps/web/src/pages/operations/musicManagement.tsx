import { useState } from 'react';
import { Form, Input } from 'antd';
import { mediaActions, type TrackRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { f, ListView, useListPage } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { OwnerField, ownerOf } from './DialogFields';
import { CoverTitle, MediaFileField, OfferFields, savedCover, useAppNames, type ShownFile } from './MediaFields';

const LIST = 'as.m.music.getTrackPage';

interface TrackForm {
  musercode?: string;
  title: string;
  audiofileid: string;
  coverfileid: string;
  sort: number;
  enabled: 0 | 1;
  appids: string[];
}

/**
 * Relaxation music (musicManagement, 00039): audio tracks with a cover, an order, enabled, and the
 * population apps they are offered to; respondents listen on the institution's QR page.
 */
export default function MusicManagement() {
  const institutions = useInstitutions();
  const appNames = useAppNames();
  const [editing, setEditing] = useState<{ item: TrackRow | null } | null>(null);
  const list = useListPage(LIST, {
    resource: 'operations.music',
    filters: [f.text('title', { maxLength: 100, width: 180 }), f.enabled(), f.institution()],
    invalidates: ['as.m.access.getFilePage'],
  });
  const col = list.colFor<TrackRow>();
  return (
    <ListView<TrackRow>
      list={list}
      rowKey="trackid"
      add={{ action: 'as.m.music.insertTrack', onClick: () => setEditing({ item: null }), testId: 'track-add' }}
      columns={[
        col.text('title', {
          width: 200,
          render: (v: string, r) => <CoverTitle title={v} coverurl={r.coverurl} />,
        }),
        col.text('audiourl', {
          width: 280,
          render: (v: string, r) => <audio controls preload="none" src={v} aria-label={r.title} className="media-audio" />,
        }),
        col.text('appids', { width: 160, render: (v: string[]) => appNames(v) }),
        col.text('sort', { width: 70, align: 'center' }),
        col.enabled({ action: 'as.m.music.enableTrack', input: (r, enabled) => ({ trackid: r.trackid, enabled }), name: (r) => r.title }),
        ...(institutions.many ? [col.text('insname', { width: 140 })] : []),
        col.actions((r) => [
          { key: 'edit', action: 'as.m.music.updateTrack', onClick: () => setEditing({ item: r }) },
          col.remove('as.m.music.deleteTrack', { trackid: r.trackid }, r.title),
        ]),
      ]}
    >
      <TrackDialog item={editing?.item ?? null} open={!!editing} onClose={() => setEditing(null)} />
    </ListView>
  );
}

function TrackDialog({ open, item, onClose }: { open: boolean; item: TrackRow | null; onClose: () => void }) {
  const [form] = Form.useForm<TrackForm>();
  const owner = Form.useWatch('musercode', form) ?? item?.musercode;
  const [audio, setAudio] = useState<ShownFile | null>(null);
  const [cover, setCover] = useState<ShownFile | null>(null);
  const shownAudio = audio ?? (item ? { url: item.audiourl, contenttype: 'audio/mpeg', filename: item.title } : null);
  const shownCover = cover ?? savedCover(item);
  const body = (v: TrackForm) => ({
    title: v.title,
    audiofileid: v.audiofileid,
    coverfileid: v.coverfileid ?? '',
    sort: v.sort ?? 0,
    enabled: v.enabled ?? 1,
    appids: v.appids ?? [],
  });
  return (
    <FormDialog<TrackForm>
      open={open}
      editing={!!item}
      action={mediaActions[item ? 'as.m.music.updateTrack' : 'as.m.music.insertTrack']}
      resource="operations.music"
      form={form}
      width={640}
      values={item ? { ...item } : { coverfileid: '', sort: 0, enabled: 1, appids: [] }}
      invalidates={['as.m.music.getTrackPage', 'as.m.access.getFilePage']}
      onSubmit={(v) =>
        item
          ? call('as.m.music.updateTrack', { trackid: item.trackid, ...body(v) })
          : call('as.m.music.insertTrack', { ...ownerOf(v), ...body(v) })
      }
      onClose={() => {
        setAudio(null);
        setCover(null);
        onClose();
      }}
      data-testid="track-dialog"
    >
      <OwnerField adding={!item} />
      <Field name="title">
        <Input data-testid="track-title" />
      </Field>
      <MediaFileField
        resource="operations.music"
        kind="audio"
        shown={shownAudio}
        onShown={setAudio}
        musercode={owner}
        testId="track-audio"
      />
      <MediaFileField resource="operations.music" kind="cover" shown={shownCover} onShown={setCover} musercode={owner} />
      <OfferFields resource="operations.music" />
    </FormDialog>
  );
}
