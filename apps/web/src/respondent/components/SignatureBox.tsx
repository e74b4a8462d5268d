import { useEffect, useImperativeHandle, useRef, type Ref } from 'react';
import SignaturePad from 'signature_pad';
import { t } from '../i18n';

export interface SignatureHandle {
  isEmpty(): boolean;
  /** The signature as a PNG data URL (what getSignaturePicture gives back to staff). */
  toPng(): string;
  clear(): void;
}

/**
 * The consent signature: signature_pad on a canvas sized to its box at the screen's pixel ratio
 * (capped at 2, which keeps the PNG far below the server's 200 KB limit). A resize (turning the
 * phone, zooming) would stretch the drawing, so the canvas is re-sized and the strokes redrawn.
 */
export function SignatureBox({ ref, onChange }: { ref: Ref<SignatureHandle>; onChange: (empty: boolean) => void }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const pad = useRef<SignaturePad | null>(null);
  const changed = useRef(onChange);
  changed.current = onChange;

  useEffect(() => {
    const el = canvas.current!;
    const sp = new SignaturePad(el, { minWidth: 1.5, maxWidth: 3.5, penColor: '#1f2328' });
    pad.current = sp;
    const fit = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      const data = sp.toData();
      el.width = el.offsetWidth * ratio;
      el.height = el.offsetHeight * ratio;
      el.getContext('2d')!.scale(ratio, ratio);
      sp.clear();
      sp.fromData(data);
    };
    fit();
    const observer = new ResizeObserver(fit);
    observer.observe(el);
    const ended = () => changed.current(sp.isEmpty());
    sp.addEventListener('endStroke', ended);
    return () => {
      observer.disconnect();
      sp.removeEventListener('endStroke', ended);
      sp.off();
    };
  }, []);

  useImperativeHandle(ref, () => ({
    isEmpty: () => pad.current?.isEmpty() ?? true,
    toPng: () => pad.current!.toDataURL('image/png'),
    clear: () => {
      pad.current?.clear();
      changed.current(true);
    },
  }));

  return (
    <div className="r-sign">
      <canvas ref={canvas} role="img" aria-label={t('consent.signHint')} data-testid="r-signature" />
    </div>
  );
}
