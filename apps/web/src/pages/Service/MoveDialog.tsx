import { useTranslation } from 'react-i18next';
import type { ActionName, MUserRow } from '@xinli/contract';
import { call } from '../../api';
import { Field, FormDialog } from '../../components/form';
import CategoryPathPicker, { fieldsToPath, pathToFields, type AccountKind } from './CategoryPathPicker';

/** Moves an account within the category tree (`updateMUserCategory`: its whole path is replaced). */
export default function MoveDialog({
  account,
  kind,
  onClose,
  invalidates,
}: {
  account: MUserRow | null;
  kind: AccountKind;
  onClose: () => void;
  invalidates?: ActionName[];
}) {
  const { t } = useTranslation();
  return (
    <FormDialog<{ category: string[] }>
      open={!!account}
      title={t('Service.account.moveTitle', { name: account?.insname ?? '' })}
      resource="Service.account"
      width={560}
      layout="vertical"
      values={{ category: account ? fieldsToPath(account) : [] }}
      success={t('Service.account.moveDone')}
      onSubmit={({ category }) => call('as.m.user.updateMUserCategory', { musercode: account!.musercode, ...pathToFields(category) })}
      onClose={onClose}
      invalidates={[...(invalidates ?? []), 'as.m.user.getMUserCategoryTree']}
      data-testid="move-dialog"
    >
      <Field name="category" label={t('Service.account.categoryPath')}>
        <CategoryPathPicker kind={kind} />
      </Field>
    </FormDialog>
  );
}
