import { describe, expect, it } from 'vitest';
import type { MenuTreeNode } from '@xinli/contract';
import { grantTree } from './PermissionsDialog';

const flat = (nodes: MenuTreeNode[]): string[] => nodes.flatMap((n) => [`${n.code}:${n.title}`, ...flat(n.children)]);

describe('the permissions tree of an account', () => {
  it('shows the grantable codes with their menu labels, each code once, parents kept', () => {
    const tree = grantTree(['00020', '00021', '00022', '00010', '00011', '0000901'], 'zh-CN', '功能权限');
    expect(flat(tree)).toEqual([
      '00010:统计分析',
      '00011:数据分析',
      '00020:服务商管理',
      '00021:机构管理',
      '00022:服务商管理',
      '0000901:功能权限',
    ]);
  });

  it('follows the page language and keeps a parent whose children are grantable', () => {
    const tree = grantTree(['00021'], 'en-US', 'Other');
    expect(flat(tree)).toEqual(['00020:Providers', '00021:Institutions']);
  });
});
