import { useEffect, useState } from 'react';
import { Button, Form, Input, Space } from 'antd';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { mediaActions, type ActionInput, type CourseRow } from '@xinli/contract';
import { call } from '../../api';
import { useAction } from '../../components/query';
import { Field, FormDialog } from '../../components/form';
import { f, ListView } from '../../components/list';
import { useOwnedList } from './owned-list';
import { UploadButton } from '../../components/upload';
import { OwnerField } from './DialogFields';
import { MediaFileField, OfferFields, savedCover, useAppNames, type ShownFile } from './MediaFields';
import { useT } from '../../i18n/useT';

const LIST = 'as.m.course.getCoursePage';

/** The input's fields; the lessons are edited beside the form. */
type CourseForm = Omit<ActionInput<'as.m.course.insertCourse'>, 'lessons'>;
interface LessonDraft {
  title: string;
  videofileid: string;
  filename: string;
}

/**
 * The cloud classroom (cloudClassroom, 00050): courses of video lessons with a cover, an order,
 * enabled, and the population apps they are offered to; respondents watch on the institution's
 * QR page.
 */
export default function CloudClassroom() {
  const appNames = useAppNames();
  const { list, col, dialog, titleCol, insnameCol } = useOwnedList<CourseRow>(LIST, { resource: 'operations.course', title: 'title', titleMax: 100, filter: f.enabled() });
  return (
    <ListView<CourseRow>
      list={list}
      rowKey="courseid"
      add={{ action: 'as.m.course.insertCourse', onClick: dialog.add, testId: 'course-add' }}
      columns={[
        titleCol(220),
        col.text('description', { width: 220, ellipsis: true }),
        col.text('lessoncount', { width: 80, align: 'center' }),
        col.text('appids', { width: 160, render: (v: string[]) => appNames(v) }),
        col.text('sort', { width: 70, align: 'center' }),
        col.enabled({
          action: 'as.m.course.enableCourse',
          input: (r, enabled) => ({ courseid: r.courseid, enabled }),
          name: (r) => r.title,
        }),
        ...insnameCol,
        col.actions((r) => [
          { key: 'edit', action: 'as.m.course.updateCourse', onClick: () => dialog.edit(r) },
          col.remove('as.m.course.deleteCourse', { courseid: r.courseid }, r.title),
        ]),
      ]}
    >
      <CourseDialog {...dialog.props} />
    </ListView>
  );
}

function CourseDialog({ open, item, onClose }: { open: boolean; item: CourseRow | null; onClose: () => void }) {
  const k = useT('operations.course');
  const [form] = Form.useForm<CourseForm>();
  const owner = Form.useWatch('musercode', form) ?? item?.musercode;
  const [cover, setCover] = useState<ShownFile | null>(null);
  const [lessons, setLessons] = useState<LessonDraft[]>([]);
  const detail = useAction('as.m.course.getCourse', { courseid: item?.courseid ?? '' }, { enabled: open && !!item });
  useEffect(() => {
    if (!open) return;
    setLessons(item ? (detail.data?.lessons ?? []).map((l) => ({ title: l.title, videofileid: l.videofileid, filename: l.title })) : []);
  }, [open, item, detail.data]);
  const shownCover = cover ?? savedCover(item);
  const withLessons = (v: CourseForm) => ({ ...v, lessons: lessons.map((l) => ({ title: l.title.trim() || l.filename, videofileid: l.videofileid })) });
  return (
    <FormDialog<CourseForm>
      open={open}
      editing={!!item}
      action={mediaActions[item ? 'as.m.course.updateCourse' : 'as.m.course.insertCourse']}
      resource="operations.course"
      form={form}
      width={720}
      record={item}
      load={item ? { loading: detail.isLoading, error: detail.error, retry: () => void detail.refetch() } : undefined}
      invalidates={['as.m.course.getCoursePage', 'as.m.access.getFilePage']}
      onSubmit={(v) =>
        item ? call('as.m.course.updateCourse', { courseid: item.courseid, ...withLessons(v) }) : call('as.m.course.insertCourse', withLessons(v))
      }
      onClose={() => {
        setCover(null);
        onClose();
      }}
      data-testid="course-dialog"
    >
      <OwnerField adding={!item} />
      <Field name="title">
        <Input data-testid="course-title" />
      </Field>
      <Field name="description">
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} />
      </Field>
      <MediaFileField resource="operations.course" kind="cover" shown={shownCover} onShown={setCover} musercode={owner} />
      <Form.Item label={k('lessons')}>
        <Space orientation="vertical" style={{ width: '100%' }} data-testid="course-lessons">
          {lessons.map((l, i) => (
            <Space key={`${l.videofileid}-${i}`} style={{ width: '100%' }}>
              <span className="lesson-no">{i + 1}.</span>
              <Input
                value={l.title}
                aria-label={k('lessonTitle', { n: i + 1 })}
                onChange={(e) => setLessons(lessons.map((x, j) => (j === i ? { ...x, title: e.target.value } : x)))}
                style={{ width: 360 }}
              />
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={k('lessonRemove', { n: i + 1 })}
                onClick={() => setLessons(lessons.filter((_, j) => j !== i))}
              />
            </Space>
          ))}
          <UploadButton
            use="video"
            musercode={owner}
            testId="course-lesson-add"
            onUploaded={(v) =>
              setLessons([...lessons, { title: v.filename.replace(/\.[^.]+$/, ''), videofileid: v.fileid, filename: v.filename }])
            }
          >
            <PlusOutlined /> {k('lessonAdd')}
          </UploadButton>
        </Space>
      </Form.Item>
      <OfferFields resource="operations.course" />
    </FormDialog>
  );
}
