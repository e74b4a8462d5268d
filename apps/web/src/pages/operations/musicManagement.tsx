import { useState } from 'react';
import { Form, Input } from 'antd';
import { mediaActions, type ActionInput, type TrackRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import { f, ListView } from '../../components/list';
import { useOwnedList } from './owned-list';
import { OwnerField } from './DialogFields';
import { MediaFileField, OfferFields, savedCover, useAppNames, type ShownFile } from './MediaFields';

const LIST = 'as.m.music.getTrackPage';

type TrackForm = ActionInput<'as.m.music.insertTrack'>;

/**
 * Relaxation music (musicManagement, 00039): audio tracks with a cover, an order, enabled, and the
 * population apps they are offered to; respondents listen on the institution's QR page.
 */
export default function MusicManagement() {
  const appNames = useAppNames();
  const { list, col, dialog, titleCol, insnameCol } = useOwnedList<TrackRow>(LIST, { resource: 'operations.music', title: 'title', titleMax: 100, filter: f.enabled() });
  return (
    <ListView<TrackRow>
      list={list}
      rowKey="trackid"
      add={{ action: 'as.m.music.insertTrack', onClick: dialog.add, testId: 'track-add' }}
      columns={[
        titleCol(200),
        col.text('audiourl', {
          width: 280,
          render: (v: string, r) => <audio controls preload="none" src={v} aria-label={r.title} className="media-audio" />,
        }),
        col.text('appids', { width: 160, render: (v: string[]) => appNames(v) }),
        col.text('sort', { width: 70, align: 'center' }),
        col.enabled({ action: 'as.m.music.enableTrack', input: (r, enabled) => ({ trackid: r.trackid, enabled }), name: (r) => r.title }),
        ...insnameCol,
        col.actions((r) => [
          { key: 'edit', action: 'as.m.music.updateTrack', onClick: () => dialog.edit(r) },
          col.remove('as.m.music.deleteTrack', { trackid: r.trackid }, r.title),
        ]),
      ]}
    >
      <TrackDialog {...dialog.props} />
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
  return (
    <FormDialog<TrackForm>
      open={open}
      editing={!!item}
      action={mediaActions[item ? 'as.m.music.updateTrack' : 'as.m.music.insertTrack']}
      resource="operations.music"
      form={form}
      width={640}
      record={item}
      invalidates={['as.m.music.getTrackPage', 'as.m.access.getFilePage']}
      onSubmit={(v) => (item ? call('as.m.music.updateTrack', { trackid: item.trackid, ...v }) : call('as.m.music.insertTrack', v))}
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
