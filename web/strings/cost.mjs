// Strings of <ae-cost> (panel 11: the n² cost of attention).
export default {
  en: {
    title: 'The n² cost',
    intro:
      'Every word attends to every other word, so a sequence of n words means n × n scores. Measure it here, live in your browser: the same WebAssembly kernels at growing n, with one head of width d = 64.',
    ownModel:
      'Your model is the page’s model: the kernels run on one head as wide as one of its heads (d = {d}), with random inputs — the cost of attention depends on n and d, not on the weights.',
    lengthLabel: 'Longest sequence n',
    lengthValue: '{n} tokens',
    windowLabel: 'Sliding window w (word i sees word j only when |i − j| < w)',
    measure: 'Measure',
    cancel: 'Cancel',
    idle: 'Press “Measure”: each n is timed in turn, one kernel at a time, and the page stays usable while it runs.',
    loading: 'Loading the WebAssembly module…',
    progress: 'Measuring {kernel} at n = {n} ({done} of {total})…',
    done: 'Done: {count} measurements up to n = {n}.',
    cancelled: 'Cancelled after {done} of {total} measurements.',
    error: 'The measurement failed: {message}',
    kernels: {
      fused: 'fused (tiled, online softmax)',
      traced: 'traced (keeps the n×n matrices)',
      window: 'sliding window, w = {w} (fused)',
    },
    short: { fused: 'fused', traced: 'traced', window: 'window' },
    reference: 'n² through {kernel} at n = {n}',
    timeTitle: 'Time per call (ms)',
    memoryTitle: 'Memory a call needs besides Q, K, V (bytes)',
    timeLabel: 'Time per call against sequence length n, logarithmic axes',
    memoryLabel: 'Memory per call against sequence length n, logarithmic axes',
    axisN: 'n (tokens)',
    tracedCap:
      'The traced kernel is not run above n = {n}: at n = {next} its trace alone would need {bytes}, more than the {limit} this page allows it. The dashed part of its memory line is what it would need.',
    tableCaption: 'Measured time and memory per kernel',
    colN: 'n',
    colTime: '{kernel}: time',
    colMemory: '{kernel}: memory',
    notRun: 'not run (would need {bytes})',
    timeSpread: '{ms} ms ({min}–{max}, {runs} runs)',
    timeOneRun: '{ms} ms (1 run)',
    ratio: '×{x} per doubling',
    ratioOverhead: '×{x} per doubling (mostly overhead)',
    overheadNone:
      'A call’s fixed cost, timed at n = 1: {costs}. It is under {share} of every time above, so the ratios per doubling (of the medians) show how the work grows: ×4 for n², ×2 for linear.',
    overheadMarked:
      'A call’s fixed cost, timed at n = 1: {costs}. At {points} it is {share} or more of the time, so there the ratio per doubling says more about that overhead than about n². Elsewhere the ratios (of the medians) show how the work grows: ×4 for n², ×2 for linear.',
    heapGrowth: 'heap +{bytes}',
    memoryNote:
      'Memory is what the kernel itself allocates, as the C++ core counts it (the traced kernel’s four n×n matrices and its output; the fused kernel’s fixed scratch, plus one number per key when a mask is set). “heap +” is how much the WebAssembly heap really grew during the call; it stays 0 when earlier calls already left enough room.',
    caption:
      'Both full kernels do n² work, so their times climb along the n² line: doubling n costs four times as much. The fused kernel never stores the n×n matrix, so its memory stays flat, while the traced one needs 16 n² bytes. A sliding window lets each word see only its w neighbours: time grows like n, which is why long-context models use such local patterns.',
  },
  zh: {
    title: 'n² 的代价',
    intro:
      '每个词都要关注其他所有词，所以长度为 n 的序列会产生 n × n 个分数。在这里直接用你的浏览器测一测：同样的 WebAssembly 内核，n 逐渐增大，只算一个宽度 d = 64 的注意力头。',
    ownModel:
      '当前页面使用你的模型：内核在与它的一个注意力头同宽的头上运行（d = {d}），输入是随机的——注意力的代价取决于 n 和 d，而不取决于权重。',
    lengthLabel: '最长序列 n',
    lengthValue: '{n} 个词元',
    windowLabel: '滑动窗口 w（只有当 |i − j| < w 时，词 i 才能看到词 j）',
    measure: '开始测量',
    cancel: '取消',
    idle: '点击“开始测量”：每个 n 依次计时，一次只跑一个内核，测量期间页面照常可用。',
    loading: '正在加载 WebAssembly 模块……',
    progress: '正在测量 {kernel}，n = {n}（第 {done} 项，共 {total} 项）……',
    done: '完成：共 {count} 项测量，最大 n = {n}。',
    cancelled: '已取消，完成了 {total} 项中的 {done} 项。',
    error: '测量失败：{message}',
    kernels: {
      fused: '融合内核（分块，在线 softmax）',
      traced: '追踪内核（保存 n×n 矩阵）',
      window: '滑动窗口 w = {w}（融合内核）',
    },
    short: { fused: '融合', traced: '追踪', window: '窗口' },
    reference: 'n² 参考线（过{kernel}内核在 n = {n} 处的测量点）',
    timeTitle: '每次调用的时间（毫秒）',
    memoryTitle: '除 Q、K、V 外每次调用所需内存（字节）',
    timeLabel: '每次调用时间随序列长度 n 的变化，对数坐标',
    memoryLabel: '每次调用内存随序列长度 n 的变化，对数坐标',
    axisN: 'n（词元数）',
    tracedCap:
      '追踪内核在 n 大于 {n} 时不再运行：在 n = {next} 时，仅它的中间结果就需要 {bytes}，超过了本页给它的上限 {limit}。它内存曲线的虚线部分就是它本来需要的内存。',
    tableCaption: '各内核实测的时间和内存',
    colN: 'n',
    colTime: '{kernel}：时间',
    colMemory: '{kernel}：内存',
    notRun: '未运行（需要 {bytes}）',
    timeSpread: '{ms} 毫秒（{min}–{max}，{runs} 次）',
    timeOneRun: '{ms} 毫秒（1 次）',
    ratio: '每翻一倍 ×{x}',
    ratioOverhead: '每翻一倍 ×{x}（主要是固定开销）',
    overheadNone:
      '一次调用的固定开销（在 n = 1 时测得）：{costs}。它在上面每个时间里都不到 {share}，所以每翻一倍的比值（按中位数计算）反映的是计算量的增长：n² 是 ×4，线性是 ×2。',
    overheadMarked:
      '一次调用的固定开销（在 n = 1 时测得）：{costs}。在 {points} 处，它占了时间的 {share} 或更多，所以那里每翻一倍的比值反映的主要是这份开销，而不是 n²。其他地方的比值（按中位数计算）反映的是计算量的增长：n² 是 ×4，线性是 ×2。',
    heapGrowth: '堆 +{bytes}',
    memoryNote:
      '内存指内核自己分配的空间，由 C++ 核心计算（追踪内核的四个 n×n 矩阵加输出；融合内核固定大小的临时空间，有掩码时每个键再多一个整数）。“堆 +”是调用期间 WebAssembly 堆实际增长的大小；如果之前的调用已经留出足够空间，它就是 0。',
    caption:
      '两个完整的内核都要做 n² 的计算，所以时间沿着 n² 参考线上升：n 翻一倍，代价变成四倍。融合内核从不保存 n×n 矩阵，内存保持不变；追踪内核则需要 16 n² 字节。滑动窗口让每个词只看身边的 w 个邻居，时间只随 n 线性增长，这正是长上下文模型采用局部注意力的原因。',
  },
};
