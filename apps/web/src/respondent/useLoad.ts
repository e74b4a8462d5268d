import { useEffect, useState } from 'react';
import { asRespondentError, type RespondentError } from './api';

/**
 * What one of the institution's content pages (articles, an article, music and courses, goods)
 * loads through its QR link: nothing yet, the data, or the error to show. A new `key` starts
 * again and drops an answer that comes late for the old one, so moving on to another article
 * never shows the one before.
 */
export function useLoad<T>(load: () => Promise<T>, key: string) {
  const [state, setState] = useState<{ data?: T; error?: RespondentError }>({});
  useEffect(() => {
    let live = true;
    setState({});
    load().then(
      (data) => live && setState({ data }),
      (err: unknown) => live && setState({ error: asRespondentError(err) }),
    );
    return () => {
      live = false;
    };
    // `load` is a new closure every render; `key` names what it loads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return state;
}
