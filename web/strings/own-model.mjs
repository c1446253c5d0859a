// Strings of the "Open a model…" picker (web/lib/own-model-picker.mjs), fetched with it; the menu's
// and the panels' few (./own-model-menu.mjs) come with the first view.
export default {
  en: {
    pick: 'Choose the four files of a GPT-2-layout checkpoint: config.json, model.safetensors, vocab.json and merges.txt.',
    drop: 'Or drop the four files here.',
    missing: 'Missing: {names}. Choose all four files at once.',
    preparing: 'Loading the part of the engine that opens models…',
    reading: 'Reading {name} into the engine: {loaded} of {total} MB…',
    building: 'Checking and building the model…',
    opened: 'Opened {name}: {layers} layers × {heads} heads, d_model {d}, {params} parameters, {ms} ms.',
    failed: 'This model could not be opened: {message}',
    panels:
      'With your model, the heatmap, the head view, All heads, Q, K, V step by step, Multi-head, the Transformer layer, the causal mask, the KV cache, the n² cost and the knock-outs run on it. Why ÷√d, positional encoding and self vs cross-attention keep their own small models: they compare models trained for their lesson, which your model is not.',
  },
  zh: {
    pick: '选择 GPT-2 格式检查点的四个文件：config.json、model.safetensors、vocab.json 和 merges.txt。',
    drop: '也可以把这四个文件拖到这里。',
    missing: '缺少：{names}。请一次选择全部四个文件。',
    preparing: '正在加载引擎中用于打开模型的部分…',
    reading: '正在把 {name} 读入引擎：{loaded} / {total} MB…',
    building: '正在检查并构建模型…',
    opened: '已打开 {name}：{layers} 层 × {heads} 个头，d_model {d}，{params} 个参数，用时 {ms} 毫秒。',
    failed: '无法打开这个模型：{message}',
    panels:
      '使用你的模型时，热力图、注意力连线、全部注意力头、Q/K/V 分步、多头、Transformer 层、因果掩码、KV 缓存、n² 代价和剔除实验都在它上面运行。为什么要 ÷√d、位置编码和自注意力与交叉注意力仍使用各自的小模型：它们比较的是为该课程训练的模型，你的模型不是这样的模型。',
  },
};
