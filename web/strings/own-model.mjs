// Strings of the "Open a model…" choice of the model menu (web/lib/own-model-picker.mjs).
export default {
  en: {
    option: 'Open a model…',
    title: 'Open your own model',
    local: 'Your files are read by this browser tab and never leave this machine: nothing is uploaded.',
    pick: 'Choose the four files of a GPT-2-layout checkpoint: config.json, model.safetensors, vocab.json and merges.txt.',
    drop: 'Or drop the four files here.',
    missing: 'Missing: {names}. Choose all four files at once.',
    reading: 'Reading {name} into the engine: {loaded} of {total} MB…',
    building: 'Checking and building the model…',
    opened: 'Opened {name}: {layers} layers × {heads} heads, d_model {d}, {params} parameters, {ms} ms.',
    failed: 'This model could not be opened: {message}',
    panels:
      'With your model, the heatmap, the head view, All heads, Q, K, V step by step, Multi-head and the Transformer layer show its attention. The other lesson panels keep their own small models: each compares models trained for its lesson (word order, the coreference decoder), which your model is not.',
  },
  zh: {
    option: '打开模型…',
    title: '打开你自己的模型',
    local: '文件只由这个浏览器标签页读取，不会离开这台电脑：不会上传任何东西。',
    pick: '选择 GPT-2 格式检查点的四个文件：config.json、model.safetensors、vocab.json 和 merges.txt。',
    drop: '也可以把这四个文件拖到这里。',
    missing: '缺少：{names}。请一次选择全部四个文件。',
    reading: '正在把 {name} 读入引擎：{loaded} / {total} MB…',
    building: '正在检查并构建模型…',
    opened: '已打开 {name}：{layers} 层 × {heads} 个头，d_model {d}，{params} 个参数，用时 {ms} 毫秒。',
    failed: '无法打开这个模型：{message}',
    panels:
      '使用你的模型时，热力图、注意力连线、全部注意力头、Q/K/V 分步、多头和 Transformer 层都会显示它的注意力。其余课程面板仍使用各自的小模型：它们比较的是为该课程训练的模型（词序、指代消解解码器），你的模型不是这样的模型。',
  },
};
