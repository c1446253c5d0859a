import { useState } from 'react';
import { createRoot } from 'react-dom/client';

import { AttentionExplorer } from './AttentionExplorer.jsx';

function App() {
  const [answer, setAnswer] = useState('');
  return (
    <>
      <AttentionExplorer
        model="coref-encoder"
        modelsBase="models/"
        onChange={(view) => setAnswer(view.prediction?.token ?? '')}
      >
        <ae-head-view></ae-head-view>
      </AttentionExplorer>
      <p id="resolved">{answer && `it → ${answer}`}</p>
    </>
  );
}

createRoot(document.querySelector('#app')).render(<App />);
