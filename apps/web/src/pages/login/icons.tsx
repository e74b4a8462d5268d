/**
 * The sign-in page's icons: antd's own outlines (@ant-design/icons-svg, the data behind
 * @ant-design/icons) drawn as plain SVG, so the page looks like the console without loading
 * antd's icon components and their style machinery.
 */
import { createElement, type ReactNode } from 'react';
import type { IconDefinition } from '@ant-design/icons-svg/lib/types';

interface SvgNode {
  tag: string;
  attrs: Record<string, string>;
  children?: SvgNode[];
}

const draw = (node: SvgNode, key?: number): ReactNode => createElement(node.tag, { ...node.attrs, key }, node.children?.map(draw));

export function Icon({ icon, className }: { icon: IconDefinition; className?: string }) {
  const root = icon.icon as SvgNode;
  return (
    <span className={`login-icon${className ? ` ${className}` : ''}`} aria-hidden="true">
      {createElement('svg', { ...root.attrs, width: '1em', height: '1em', fill: 'currentColor' }, root.children?.map(draw))}
    </span>
  );
}
