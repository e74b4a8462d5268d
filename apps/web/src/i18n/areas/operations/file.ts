import { defineArea } from '../../area';

/** Uploaded files (fileUpload, 00030): operations.file.* */
export default defineArea({
  zh: {
    filename: '文件名',
    use: '用途',
    uploadAs: '上传为',
    useNames: { image: '图片', audio: '音频', video: '视频', pdf: 'PDF', excel: 'Excel' },
    contenttype: '文件类型',
    size: '大小',
    uses: '使用处',
    insname: '所属机构',
    owner: '上传到机构（默认本机构）',
    upload: '上传文件（≤ {{mb}} MB）',
    pending: '等待上传完成',
    preview: '预览',
    openNew: '在新窗口打开',
    inUse: '有 {{count}} 处内容正在使用，不能删除',
    inUse_one: '有 {{count}} 处内容正在使用，不能删除',
  },
  en: {
    filename: 'File name',
    use: 'Use',
    uploadAs: 'Upload as',
    useNames: { image: 'Image', audio: 'Audio', video: 'Video', pdf: 'PDF', excel: 'Excel' },
    contenttype: 'Type',
    size: 'Size',
    uses: 'Used by',
    insname: 'Institution',
    owner: 'For institution (default: own)',
    upload: 'Upload a file (≤ {{mb}} MB)',
    pending: 'Upload not finished',
    preview: 'Preview',
    openNew: 'Open in a new window',
    inUse: 'Used by {{count}} pieces of content; cannot be deleted',
    inUse_one: 'Used by {{count}} piece of content; cannot be deleted',
  },
});
