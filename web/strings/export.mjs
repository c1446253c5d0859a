// Strings of the export buttons (web/components/export-buttons.mjs).
export default {
  en: {
    group: 'Export {view}',
    svg: 'SVG',
    png: 'PNG',
    json: 'Attention JSON',
    svgLabel: 'Download {view} as an SVG image',
    pngLabel: 'Download {view} as a PNG image',
    jsonLabel: 'Download the attention weights of this sentence (every layer and head) as JSON',
    failed: 'Export failed: {message}',
    views: {
      heatmap: 'the heatmap',
      headView: 'the head view',
      headGrid: 'the grid of all heads',
      flipPair: 'the side-by-side view',
    },
  },
  zh: {
    group: '导出{view}',
    svg: 'SVG',
    png: 'PNG',
    json: '注意力 JSON',
    svgLabel: '将{view}下载为 SVG 图片',
    pngLabel: '将{view}下载为 PNG 图片',
    jsonLabel: '将这个句子的注意力权重（所有层、所有头）下载为 JSON',
    failed: '导出失败：{message}',
    views: {
      heatmap: '热力图',
      headView: '连线图',
      headGrid: '全部注意力头的缩略图',
      flipPair: '并排对比图',
    },
  },
};
