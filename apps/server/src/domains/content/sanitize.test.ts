import { describe, expect, it } from 'vitest';
import { sanitizeArticle } from './sanitize.js';

const KEY = `${'a'.repeat(32)}.png`;

describe('sanitizeArticle', () => {
  it('keeps text structure, links and file-store pictures', () => {
    const html = `<h2>标题</h2><p>一段<strong>重要</strong>的<em>文字</em><a href="https://example.com/x">链接</a></p><ul><li><p>一</p></li></ul><p><img src="/files/${KEY}" alt="图"></p>`;
    const out = sanitizeArticle(html);
    expect(out.html).toBe(
      `<h2>标题</h2><p>一段<strong>重要</strong>的<em>文字</em><a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">链接</a></p><ul><li><p>一</p></li></ul><p><img src="/files/${KEY}" alt="图" /></p>`,
    );
    expect(out.keys).toEqual([KEY]);
  });

  it('drops scripts with their text, event handlers, styles and javascript: or data: URLs', () => {
    const html = [
      '<p onclick="alert(1)" style="color:red">hi</p>',
      '<script>alert("x")</script>',
      '<a href="javascript:alert(1)">bad</a>',
      '<a href="JaVaScRiPt&colon;alert(1)">bad2</a>',
      '<img src="x" onerror="alert(1)">',
      '<img src="data:image/png;base64,AAAA">',
      '<img src="https://evil.example/a.png">',
      '<iframe src="https://evil.example"></iframe>',
      '<svg><script>alert(1)</script></svg>',
      '<style>body{display:none}</style>',
      '<a href="//evil.example">proto</a>',
    ].join('');
    const out = sanitizeArticle(html).html;
    expect(out).not.toMatch(/script|onclick|onerror|style|javascript|data:|iframe|svg|evil/i);
    expect(out).toBe(
      '<p>hi</p><a target="_blank" rel="noopener noreferrer nofollow">bad</a><a target="_blank" rel="noopener noreferrer nofollow">bad2</a><a target="_blank" rel="noopener noreferrer nofollow">proto</a>',
    );
    expect(sanitizeArticle(html).keys).toEqual([]);
  });
});
