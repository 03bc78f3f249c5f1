"""The printout the side-by-side scripts share (bootstrap-ab.py, warm-start-ab.py): one line per run, then medians."""
import statistics


def print_row(r, label, row, two_decimals):
    print(f'{r} {label:8s} ' + ' '.join(f'{k}={v:.2f}' if k in two_decimals else f'{k}={v:.0f}'
                                        for k, v in row.items()), flush=True)


def print_medians(res, two_decimals):
    """Each configuration's rows as median [min-max] per field; fields in two_decimals keep two decimals."""
    print('--- medians [min-max]')
    for label, rows in res.items():
        if not rows:
            continue
        cells = []
        for k in rows[0]:
            v = [x[k] for x in rows]
            f = '.2f' if k in two_decimals else '.0f'
            cells.append(f'{k}={statistics.median(v):{f}} [{min(v):{f}}-{max(v):{f}}]')
        print(f'{label:8s} ' + ' '.join(cells))
