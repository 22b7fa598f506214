// Words for a listener: moves as a screen reader or the speech synthesis
// says them ("knight b1 White to c3 Neutral, check"), events, the board.
import {pieceNames} from '/static/flat.js';

// The words of the cells and the sockets of the system shown, from its
// layout (the system's geometry: "b1 White", "a0 attack board QL1", "a1
// level 2", "platform KL2 inverted"); useLayout sets them.
let said = new Map(), sockets = new Set();

// useLayout takes the words of the cells of lay, the layout of the system
// the page shows.
export function useLayout(lay) {
  said = new Map(lay.cells.filter(c => c.w).map(c => [c.n, c.w]));
  sockets = new Set(lay.cells.filter(c => c.k).map(c => c.n));
}

// cellWords says a cell as its system's geometry says it, else by name.
export function cellWords(n) {
  if (!n) return '';
  return said.get(n) || n;
}

// boardWords says a socket: "attack board QL1", "platform KL2 inverted".
function boardWords(p) { return said.get(p) || p; }

// spokenMove says move m played from the position before ({pieces}).
export function spokenMove(m, before) {
  const pb = (before && before.pieces) || {}, pa = m.pieces || {};
  const short = m.short || '';
  let text;
  if (/^[0O]-[0O](-[0O])?/.test(short)) {
    text = (pa[m.to] && pa[m.to] === pa[m.to].toLowerCase() ? 'Black' : 'White') + ' castles ' + (/^[0O]-[0O]-[0O]/.test(short) ? 'queen side' : 'king side');
  } else if (m.from && sockets.has(m.from) || !m.from && m.to && sockets.has(m.to)) {
    text = m.from ? `${boardWords(m.from)} to ${m.to}` : `${boardWords(m.to)} placed`;
  } else if (!m.from) {
    const p = pa[m.to];
    text = `${p ? pieceNames[p.toUpperCase()] : 'piece'} in at ${cellWords(m.to)}`;
  } else {
    const p = pb[m.from], cap = pb[m.to];
    text = `${p ? pieceNames[p.toUpperCase()] : 'piece'} ${cellWords(m.from)} ${cap ? 'takes' : 'to'} ${cellWords(m.to)}`;
    const now = pa[m.to];
    if (p && now && now.toUpperCase() !== p.toUpperCase()) text += `, becomes ${pieceNames[now.toUpperCase()]}`;
  }
  if (short.includes('#')) text += ', checkmate';
  else if (short.includes('+')) text += ', check';
  return text;
}

// eventText is the last event in words.
export function eventText(ev) {
  const cells = (ev.cells || []).join(', ') || ev.cell || '';
  const d = ev.detail || '';
  switch (ev.type) {
    case 'lift': return 'lifted ' + cells;
    case 'place': return 'placed ' + cells;
    case 'illegal': return 'illegal move' + (d ? ': ' + d : '') + (cells ? ' (' + cells + ')' : '');
    case 'mismatch': return 'the pieces differ from the game' + (cells ? ' on ' + cells : '') + (d ? ': ' + d : '');
    case 'check': return 'check' + (ev.cell ? ': the king on ' + ev.cell : '');
    case 'game_over': {
      const who = {'1-0': 'White wins', '0-1': 'Black wins', '1/2-1/2': 'draw'}[ev.result] || 'game over';
      return 'Game over: ' + who + (d ? ' by ' + d.replace(/_/g, ' ') : '') + (ev.result ? ' (' + ev.result + ')' : '');
    }
    case 'fault': return 'sensor fault' + (d ? ': ' + d : '');
    case 'take_back': return 'move taken back' + (ev.move ? ': ' + ev.move : '');
    case 'draw_offer': return 'draw offered' + (d ? ' (' + d + ')' : '');
    case 'new_game': return 'new game';
    case 'clock': return 'clock' + (d ? ': ' + d : '');
    case 'low_time': return 'low time' + (d ? ': ' + d : '');
    case 'correction': return 'change of mind: ' + (d || 'the last move') + (ev.move ? ', ' + ev.move + ' instead' : '');
    case 'hint': return 'hint' + (d ? ' for ' + d[0].toUpperCase() + d.slice(1) : '') + ': ' + (ev.move || (ev.cell ? 'move the piece on ' + ev.cell : cells));
  }
  return ev.type.replace(/_/g, ' ') + (d ? ': ' + d : '');
}

// describe lists the pieces of a position for a screen reader, side by
// side and kind by kind: "White: king d0 KL1, ...; Black: ...".
export function describe(pos) {
  const pieces = (pos && pos.pieces) || {};
  const out = [];
  for (const [side, upper] of [['White', true], ['Black', false]]) {
    const parts = [];
    for (const k of 'KQRBNP') {
      const l = upper ? k : k.toLowerCase();
      const cells = Object.keys(pieces).filter(c => pieces[c] === l).sort();
      if (cells.length) parts.push(pieceNames[k] + (cells.length > 1 ? 's ' : ' ') + cells.map(cellWords).join(', '));
    }
    out.push(side + ': ' + (parts.join('; ') || 'no pieces'));
  }
  return 'the board: ' + out.join('. ');
}
