import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { Tooltip } from 'antd';

/**
 * A menu label that ellipsises when it does not fit (long English labels in the 210 px sidebar
 * and the top menu) and then shows its full text in a tooltip on hover.
 */
export default function MenuLabel({ text, placement = 'right' }: { text: string; placement?: 'right' | 'bottom' }) {
  const ref = useRef<HTMLSpanElement>(null);
  const [cut, setCut] = useState(false);
  const measure = useCallback(() => {
    const el = ref.current;
    setCut(!!el && el.scrollWidth > el.clientWidth + 1);
  }, []);
  useLayoutEffect(measure, [measure, text]);
  return (
    <Tooltip title={cut ? text : undefined} placement={placement} mouseEnterDelay={0.3}>
      <span ref={ref} className="menu-label" onMouseEnter={measure} aria-label={text} data-full-label={text}>
        {text}
      </span>
    </Tooltip>
  );
}
