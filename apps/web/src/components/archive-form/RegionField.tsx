/**
 * Input type 8 (province/city/district). The console's one region picker is
 * components/RegionPicker.tsx (built with the institution pages); this adapter keeps the archive
 * form's value (the codes from province down, see values.ts) and is replaced by it on merge.
 */
import { Input } from 'antd';

export function RegionField(props: { value?: string[]; onChange?: (v: string[]) => void }) {
  return (
    <Input
      value={(props.value ?? []).join('/')}
      onChange={(e) => props.onChange?.(e.target.value.split('/').filter(Boolean))}
      style={{ width: 260 }}
    />
  );
}
