import { useEffect } from 'react';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import Image from '@tiptap/extension-image';
import { Button, Space, Tooltip } from 'antd';
import { BoldOutlined, ItalicOutlined, OrderedListOutlined, StrikethroughOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { UploadButton } from '../../components/upload';
import { useT } from '../../i18n/useT';
import type { KeyOf } from '../../i18n/keys';

/**
 * The rich-text editor of articles (Tiptap 3, loaded only when an article dialog opens). It
 * writes HTML; the server sanitises it with its own allow-list, so what the editor allows is a
 * convenience, not the rule. Pictures are uploaded to the file store first and shown by URL.
 */
export default function ArticleEditor({
  value,
  onChange,
  musercode,
}: {
  value?: string;
  onChange?: (html: string) => void;
  musercode?: string;
}) {
  const k = useT('operations.article.editor');
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: { levels: [2, 3] }, link: { openOnClick: false } }), Image],
    content: value ?? '',
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
    editorProps: {
      attributes: { class: 'article-body article-editor-body', 'aria-label': k('body'), role: 'textbox', 'aria-multiline': 'true' },
    },
  });
  // A new value from outside (the dialog opened on another article) replaces the text.
  useEffect(() => {
    if (editor && value !== undefined && value !== editor.getHTML() && !(value === '' && editor.isEmpty))
      editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      strike: e?.isActive('strike') ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
      quote: e?.isActive('blockquote') ?? false,
    }),
  });
  if (!editor) return null;
  const chain = () => editor.chain().focus();
  const tool = (key: KeyOf<'operations.article.editor'>, active: boolean, run: () => void, icon: React.ReactNode) => (
    <Tooltip title={k(key)} key={key}>
      <Button size="small" type={active ? 'primary' : 'text'} icon={icon} aria-label={k(key)} aria-pressed={active} onClick={run} />
    </Tooltip>
  );
  return (
    <div className="article-editor" data-testid="article-editor">
      <Space size={2} wrap className="article-editor-toolbar" role="toolbar" aria-label={k('toolbar')}>
        {tool('h2', !!state?.h2, () => chain().toggleHeading({ level: 2 }).run(), <span className="article-tool-text">H2</span>)}
        {tool('h3', !!state?.h3, () => chain().toggleHeading({ level: 3 }).run(), <span className="article-tool-text">H3</span>)}
        {tool('bold', !!state?.bold, () => chain().toggleBold().run(), <BoldOutlined />)}
        {tool('italic', !!state?.italic, () => chain().toggleItalic().run(), <ItalicOutlined />)}
        {tool('strike', !!state?.strike, () => chain().toggleStrike().run(), <StrikethroughOutlined />)}
        {tool('bullet', !!state?.bullet, () => chain().toggleBulletList().run(), <UnorderedListOutlined />)}
        {tool('ordered', !!state?.ordered, () => chain().toggleOrderedList().run(), <OrderedListOutlined />)}
        {tool('quote', !!state?.quote, () => chain().toggleBlockquote().run(), <span className="article-tool-text">“”</span>)}
        <UploadButton
          use="image"
          musercode={musercode}
          testId="article-image"
          onUploaded={(f) => chain().setImage({ src: f.url, alt: f.filename }).run()}
        >
          {k('image')}
        </UploadButton>
      </Space>
      <EditorContent editor={editor} />
    </div>
  );
}
