// The four data elements, each importable alone (`attention-explorer/<element>`); no
// <attention-explorer> and no engine are loaded. Each reads its `src` file itself; from script:
//   import { loadAttentionJson } from 'attention-explorer/attention-data';
//   heatmap.data = await loadAttentionJson('attention.json');   // or {tokens, weights}
import 'attention-explorer/attention-heatmap';
import 'attention-explorer/head-view';
import 'attention-explorer/head-grid';
import 'attention-explorer/attention-pattern';
