/**
 * What the operations lists (courses, tracks, goods, articles) share: an institution's own items
 * found by their title, one filter of their own and the institution; the files page refreshed
 * with them (covers and audio are files of the institution); a create/edit dialog; the title cell
 * with its cover; and the institution column when the caller manages several.
 */
import type { ActionName } from '@xinli/contract';
import { f, useEditDialog, useListPage, type FilterDef } from '../../components/list';
import { useInstitutions } from '../../components/pickers';
import { CoverTitle } from './MediaFields';

type OwnedRow = { insname: string; coverurl?: string | null };

export function useOwnedList<R extends OwnedRow>(
  action: ActionName,
  o: { resource: string; title: 'title' | 'goodsname'; titleMax: number; filter: FilterDef },
) {
  const institutions = useInstitutions();
  const dialog = useEditDialog<R>();
  const list = useListPage(action, {
    resource: o.resource,
    filters: [f.text(o.title, { maxLength: o.titleMax, width: 180 }), o.filter, f.institution()],
    invalidates: ['as.m.access.getFilePage'],
  });
  const col = list.colFor<R>();
  const field = o.title as Extract<keyof R, string>;
  return {
    list,
    col,
    dialog,
    /** The title with the cover before it. */
    titleCol: (width: number) => col.text(field, { width, render: (v: string, r: R) => <CoverTitle title={v} coverurl={r.coverurl} /> }),
    /** The owning institution, for a caller who manages several. */
    insnameCol: institutions.many ? [col.text('insname' as Extract<keyof R, string>, { width: 140 })] : [],
  };
}
