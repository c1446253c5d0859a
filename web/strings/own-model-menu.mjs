// The "Open a model…" choice's strings that the first view and the panels need (the menu's
// option, the page title, the panels' note: web/lib/panel-model.mjs); the picker's own are in
// ./own-model.mjs, fetched with it.
export default {
  en: {
    option: 'Open a model…',
    title: 'Open your own model',
    local: 'Your files are read by this browser tab and never leave this machine: nothing is uploaded.',
    panelOwn: 'This panel runs your model opened from disk ({layers} layers × {heads} heads).',
    panelLesson: 'This panel runs the lesson model {name}.',
  },
  zh: {
    option: '打开模型…',
    title: '打开你自己的模型',
    local: '文件只由这个浏览器标签页读取，不会离开这台电脑：不会上传任何东西。',
    panelOwn: '这个面板运行你从磁盘打开的模型（{layers} 层 × {heads} 个头）。',
    panelLesson: '这个面板运行课程模型 {name}。',
  },
};
