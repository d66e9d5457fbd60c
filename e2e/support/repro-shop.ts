import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The shop's one page: a name, an email, a quantity, add to cart, check out (its answer shown). */
const SHOP_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Repro shop</title></head>
<body>
<h1>Repro shop</h1>
<form id="order" onsubmit="return false">
  <label>Name <input id="name" name="name" autocomplete="off"></label>
  <label>Email <input id="email" name="email" type="email" autocomplete="off"></label>
  <label>Quantity <input id="quantity" name="quantity" type="number" min="1" value="1"></label>
  <button type="button" id="add">Add to cart</button>
  <button type="button" id="checkout" data-testid="checkout">Checkout</button>
</form>
<p id="cart">Cart is empty</p>
<p id="status" role="status"></p>
<script>
  let cart = 0;
  document.getElementById('add').addEventListener('click', () => {
    cart = Number(document.getElementById('quantity').value);
    document.getElementById('cart').textContent = 'Cart: ' + cart + ' items';
  });
  document.getElementById('checkout').addEventListener('click', async () => {
    const body = JSON.stringify({ name: document.getElementById('name').value, email: document.getElementById('email').value, quantity: cart });
    const res = await fetch('/api/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const answer = await res.json();
    document.getElementById('status').textContent = res.ok ? 'Order ' + answer.order + ' placed' : 'Checkout failed: ' + answer.error;
  });
</script>
</body></html>`;

export interface ReproShop {
  origin: string;
  /** Whether checkout answers 500 for quantities over 5 (the bug); false: the bug fixed. */
  buggy: boolean;
  /** The quantity of each checkout asked, in order. */
  checkouts: number[];
  close(): Promise<void>;
}

/** A shop on loopback whose checkout answers 500 for quantities over 5 while `buggy`. */
export async function startReproShop(port = 0): Promise<ReproShop> {
  const shop = { buggy: true, checkouts: [] as number[] } as ReproShop;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    let body = '';
    req.on('data', (chunk) => (body += String(chunk)));
    req.on('end', () => {
      if (url.pathname === '/api/checkout' && req.method === 'POST') {
        const quantity = Number((JSON.parse(body || '{}') as { quantity?: unknown }).quantity);
        shop.checkouts.push(quantity);
        const fail = shop.buggy && quantity > 5;
        res.writeHead(fail ? 500 : 200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(fail ? { error: 'stock_service_overflow' } : { order: 'A-1001' }));
        return;
      }
      if (url.pathname === '/' || url.pathname === '/shop.html') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(SHOP_PAGE);
        return;
      }
      res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  shop.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  shop.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return shop;
}
