// Opened from disk (file://), the browser refuses the page's modules (CORS: origin "null"), so
// app.mjs never runs (nor does the main view, <attention-explorer>) and the page would stay on
// "Loading…" with only a console error. This classic script (classic scripts do load from
// file://) says so instead, with the command that serves the page. Over http it does nothing.
(function () {
  if (location.protocol !== 'file:') return;
  var zh = /^zh/i.test(navigator.language || '');
  var text = zh
    ? ['这个页面需要通过 HTTP 打开：浏览器不会从 file:// 地址加载它的模块。请在项目目录中运行 ', 'npm start',
      '，然后打开 http://127.0.0.1:8080/ 。（不需要服务器的单文件版本：', 'npm run build:single', '。）']
    : ['This page has to be served over HTTP: browsers do not load its modules from a file:// address. In the project folder, run ',
      'npm start', ' and open http://127.0.0.1:8080/ (or, for one file that works without a server, ', 'npm run build:single', ').'];
  function show() {
    var view = document.getElementById('result'); // <attention-explorer>, never defined here
    var status = document.getElementById('page-status');
    if (!view || !status) return;
    view.dataset.status = 'needs-server';
    status.setAttribute('role', 'alert');
    status.textContent = '';
    text.forEach(function (part, i) {
      var node = i % 2 ? document.createElement('code') : document.createTextNode(part);
      if (i % 2) node.textContent = part;
      status.appendChild(node);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', show);
  else show();
})();
