// The page that `sluice echo-server` serves at / when it listens on WebSocket: rsocket-js in the browser, talking
// to the echo service on the same host and port, on the WebSocket path that the server wrote into the page's
// <meta name="sluice-websocket-path"> (/rsocket unless the address names another). It runs two interactions and writes what happened
// into <pre id="results"> as JSON, for a person to read and for scripts/check-browser.sh to check:
//   - request-response: sends data and metadata, shows the echo;
//   - request-stream with backpressure: asks for `batch` elements at a time, waits `pauseMs` after each batch before
//     asking for more (counting anything that arrives unasked meanwhile), and cancels after `total` elements.
// The echo service repeats a stream's request payload until cancelled, so only the page's demand bounds the stream.
//
// Query parameters (all optional): url=ws://host:port/path, total=20, batch=5, pauseMs=300.
//
// Bundled with esbuild into sluice-cli/src/main/resources/dev/sluice/cli/browser/echo-page.js: see README.md here.
import {RSocketClient, Utf8Encoders} from 'rsocket-core';
import RSocketWebSocketClient from 'rsocket-websocket-client';

const params = new URLSearchParams(window.location.search);
const pathMeta = document.querySelector('meta[name="sluice-websocket-path"]');
const url = params.get('url') || (window.location.protocol === 'https:' ? 'wss://' : 'ws://') + window.location.host
  + (pathMeta && pathMeta.content ? pathMeta.content : '/rsocket');
const total = positive('total', 20);
const batch = positive('batch', 5);
const pauseMs = positive('pauseMs', 300);

const results = {
  state: 'running',
  url,
  requestResponse: null,
  stream: {
    total,
    batch,
    pauseMs,
    requests: [],
    requested: 0,
    received: 0,
    elements: [],
    overrun: 0,
    arrivedWhilePaused: 0,
    arrivedAfterCancel: 0,
    cancelled: false,
  },
  error: null,
};

function positive(name, fallback) {
  const value = Number(params.get(name) || fallback);
  if (!Number.isInteger(value) || value <= 0) {
    throw new Error(name + ' must be a positive integer, got ' + params.get(name));
  }
  return value;
}

function show() {
  document.getElementById('results').textContent = JSON.stringify(results, null, 2);
  document.getElementById('state').textContent = results.state;
  document.getElementById('state').dataset.state = results.state;
  document.title = 'sluice echo: ' + results.state;
  if (results.requestResponse) {
    document.getElementById('echo').textContent = 'data "' + results.requestResponse.data + '", metadata "'
      + results.requestResponse.metadata + '"';
  }
  const s = results.stream;
  document.getElementById('stream').textContent = s.received + ' of ' + s.total + ' elements, requested '
    + s.requests.join(' + ') + (s.cancelled ? ', then cancelled' : '');
}

function fail(where, error) {
  if (results.state === 'running') {
    results.state = 'error';
    results.error = where + ': ' + (error && error.message ? error.message : String(error));
    show();
  }
}

function finish(socket) {
  results.state = 'done';
  show();
  socket.close();
}

function requestResponse(socket) {
  return new Promise((resolve, reject) => {
    socket.requestResponse({data: 'hello from the browser', metadata: 'page-metadata'}).subscribe({
      onComplete: payload => {
        results.requestResponse = {data: payload.data, metadata: payload.metadata};
        show();
        resolve();
      },
      onError: reject,
    });
  });
}

function requestStream(socket) {
  const s = results.stream;
  return new Promise((resolve, reject) => {
    let subscription;
    let paused = false;
    const ask = n => {
      s.requests.push(n);
      s.requested += n;
      subscription.request(n);
    };
    socket.requestStream({data: 'tick', metadata: ''}).subscribe({
      onSubscribe: sub => {
        subscription = sub;
        ask(Math.min(batch, total));
      },
      onNext: payload => {
        if (s.cancelled) {
          s.arrivedAfterCancel++;
          return;
        }
        s.received++;
        s.elements.push(payload.data);
        if (paused) {
          s.arrivedWhilePaused++;
        }
        if (s.received > s.requested) {
          s.overrun++;
        }
        if (s.received >= total) {
          s.cancelled = true;
          subscription.cancel();
          show();
          // Anything still arriving after the cancel is counted before the page says it is done.
          setTimeout(resolve, pauseMs);
        } else if (s.received === s.requested) {
          show();
          paused = true;
          setTimeout(() => {
            paused = false;
            ask(Math.min(batch, total - s.received));
          }, pauseMs);
        }
      },
      onComplete: () => reject(new Error('the stream completed after ' + s.received + ' elements; the echo service'
        + ' streams until cancelled (was it started with --stream-count?)')),
      onError: reject,
    });
  });
}

const client = new RSocketClient({
  setup: {
    keepAlive: 20000,
    lifetime: 90000,
    dataMimeType: 'text/plain',
    metadataMimeType: 'text/plain',
  },
  transport: new RSocketWebSocketClient({url}, Utf8Encoders),
});

show();
client.connect().subscribe({
  onComplete: socket => {
    requestResponse(socket)
      .then(() => requestStream(socket))
      .then(() => finish(socket), error => fail('request', error));
  },
  onError: error => fail('connect to ' + url, error),
});
