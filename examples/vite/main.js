import 'attention-explorer/elements';

// Every change of what the element shows: print the model's answer beside it.
document.querySelector('attention-explorer').addEventListener('ae-change', (event) => {
  const { prediction, status } = event.detail;
  document.querySelector('#resolved').textContent = status === 'ready' ? `it → ${prediction?.token}` : '';
});
