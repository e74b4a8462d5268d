/**
 * The built-in scale library the server seeds (form codes are stable: they are primary keys).
 * Every definition is parsed and validated at load, so a broken library entry fails at start-up
 * and in the library test, never at a respondent's submission.
 */
import type { FormDefinition, FormDefinitionInput } from '@xinli/contract';
import { parseDefinition } from '../scoring/validate.js';
import { archiveSources } from './archive-forms.js';
import { epds } from './epds.js';
import { gad7 } from './gad7.js';
import { gds15 } from './gds15.js';
import { isi } from './isi.js';
import { mht } from './mht.js';
import { phq9 } from './phq9.js';
import { consultationRegistration } from './registration-form.js';
import { phqa } from './phqa.js';
import { pss10 } from './pss10.js';
import { sas } from './sas.js';
import { scl90 } from './scl90.js';
import { sds } from './sds.js';
import { ucla3 } from './ucla3.js';

/** The definitions as written (defaults left out). */
export const builtInSources: FormDefinitionInput[] = [phq9, gad7, gds15, phqa, epds, sds, sas, pss10, scl90, isi, ucla3, mht];

/** The parsed, validated built-in library. */
export const builtInLibrary: FormDefinition[] = builtInSources.map(parseDefinition);

/** One built-in definition by form code. */
export const builtInForm = (formcode: string): FormDefinition | undefined => builtInLibrary.find((d) => d.formcode === formcode);

/** The built-in user-archive forms (type 02), one per population app; unscored, so kept apart from the instruments. */
export const builtInArchiveForms: FormDefinition[] = archiveSources.map(parseDefinition);

/** The built-in consultation registration form (type 03); unscored. */
export const builtInRegistrationForms: FormDefinition[] = [consultationRegistration].map(parseDefinition);

/** Everything the server seeds as built-in: instruments, archive forms and the registration form. */
export const builtInForms: FormDefinition[] = [...builtInLibrary, ...builtInArchiveForms, ...builtInRegistrationForms];
