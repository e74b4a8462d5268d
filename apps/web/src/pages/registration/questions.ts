import type { ActionOutput } from '@xinli/contract';
import type { ArchiveField } from '../../components/archive-form/values';

type FormDetail = ActionOutput<'as.m.registration.getRegistrationForm'>;

/** A registration form's questions as the archive-form fields render them (the same widgets and answer format). */
export const fieldsOf = (form: FormDetail): ArchiveField[] =>
  form.questions.map((q) => ({
    no: q.no,
    type: q.type,
    inputtype: q.type === 0 ? (q.inputtype ?? 0) : null,
    required: q.required,
    title: q.text,
    options: q.options.map((o) => o.text),
    range: q.range ?? null,
  }));

/** Tag colours of the registration states. */
export const STATE_COLOURS: Record<string, string> = { new: 'blue', inprogress: 'gold', case: 'red', closed: 'default' };
