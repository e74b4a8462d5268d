import { useMemo, useState } from 'react';

/**
 * The create/edit dialog of a list page: closed, open for a new row (the toolbar's add), or open
 * for a row (its edit link). `props` are what a kit dialog takes: `<GoodsDialog {...dialog.props} />`.
 */
export function useEditDialog<T>() {
  const [state, setState] = useState<{ item: T | null } | null>(null);
  return useMemo(
    () => ({
      add: () => setState({ item: null }),
      edit: (item: T) => setState({ item }),
      props: { open: !!state, item: state?.item ?? null, onClose: () => setState(null) },
    }),
    [state],
  );
}
