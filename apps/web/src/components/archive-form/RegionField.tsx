/**
 * Input type 8 (province/city/district): the console's one region picker. Its value is the code
 * path from province down; the archive stores the deepest code (values.ts).
 */
import { useTranslation } from 'react-i18next';
import RegionPicker from '../RegionPicker';

export function RegionField(props: { value?: string[]; onChange?: (v: string[]) => void }) {
  const { t } = useTranslation();
  return <RegionPicker value={props.value} onChange={props.onChange} placeholder={t('archives.form.region')} style={{ width: 280 }} />;
}
