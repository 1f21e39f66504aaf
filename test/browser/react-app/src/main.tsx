import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';

const params = new URLSearchParams(location.search);
const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App
        proxy={params.get('proxy') ?? ''}
        pollId={params.get('poll') ?? ''}
        partnerId={params.get('partner') ?? ''}
      />
    </StrictMode>,
  );
}
