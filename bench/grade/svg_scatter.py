"""A scatter plot as an SVG string, with no plotting library: published rating across, grade
up, one dot per puzzle (tuning set grey, held-out set blue, a little horizontal jitter so the
dots of one rating do not hide each other), and the diagonal grade = rating."""
import random


def scatter(points, size=560, margin=50, low=1.0, high=12.0):
    span = size - 2 * margin
    jitter = random.Random(0)

    def x(v):
        return margin + (v - low) / (high - low) * span

    def y(v):
        return size - margin - (v - low) / (high - low) * span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" '
           f'viewBox="0 0 {size} {size}" font-family="sans-serif" font-size="12">',
           f'<rect width="{size}" height="{size}" fill="white"/>',
           f'<line x1="{x(low)}" y1="{y(low)}" x2="{x(high)}" y2="{y(high)}" stroke="#ccc"/>']
    for t in range(1, 13):
        out.append(f'<line x1="{x(t):.1f}" y1="{y(low)}" x2="{x(t):.1f}" y2="{y(low) + 5}" stroke="black"/>')
        out.append(f'<text x="{x(t):.1f}" y="{y(low) + 18}" text-anchor="middle">{t}</text>')
        out.append(f'<line x1="{x(low) - 5}" y1="{y(t):.1f}" x2="{x(low)}" y2="{y(t):.1f}" stroke="black"/>')
        out.append(f'<text x="{x(low) - 8}" y="{y(t) + 4:.1f}" text-anchor="end">{t}</text>')
    out.append(f'<rect x="{margin}" y="{margin}" width="{span}" height="{span}" fill="none" stroke="black"/>')
    for rating, grade, which in points:
        colour = '#1f5fbf' if which == 'heldout' else '#999'
        cx = x(rating + jitter.uniform(-0.06, 0.06))
        out.append(f'<circle cx="{cx:.1f}" cy="{y(grade):.1f}" r="2.2" fill="{colour}" fill-opacity="0.6"/>')
    out.append(f'<text x="{size / 2}" y="{size - 12}" text-anchor="middle">'
               'published rating (Sukaku Explainer)</text>')
    out.append(f'<text x="14" y="{size / 2}" text-anchor="middle" transform="rotate(-90 14 {size / 2})">'
               'cpsolve explain grade</text>')
    out.append(f'<text x="{margin + 8}" y="{margin + 16}">● tuning (grey)  ● held-out (blue)</text>')
    out.append('</svg>')
    return '\n'.join(out) + '\n'
