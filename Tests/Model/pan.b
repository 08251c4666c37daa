	switch (t->back) {
	default: Uerror("bad return move");
	case  0: goto R999; /* nothing to undo */

		 /* PROC :init: */

	case 3: // STATE 1
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;

	case 4: // STATE 2
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;

	case 5: // STATE 3
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;

	case 6: // STATE 4
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;

	case 7: // STATE 5
		;
		;
		delproc(0, now._nr_pr-1);
		;
		goto R999;
;
		;
		;
		;
		
	case 10: // STATE 9
		;
		((P4 *)_this)->c = trpt->bup.oval;
		;
		goto R999;
;
		;
		;
		;
		
	case 13: // STATE 12
		;
		((P4 *)_this)->c = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 15: // STATE 19
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC S3 */

	case 16: // STATE 1
		;
		now.before[4] = trpt->bup.oval;
		;
		goto R999;

	case 17: // STATE 2
		;
		((P3 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 18: // STATE 5
		;
		((P3 *)_this)->r = trpt->bup.ovals[1];
		((P3 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 19: // STATE 10
		;
		((P3 *)_this)->ok = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		
	case 20: // STATE 14
		goto R999;

	case 21: // STATE 12
		;
		((P3 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 22: // STATE 18
		;
		((P3 *)_this)->r = trpt->bup.ovals[2];
		((P3 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P3 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 23: // STATE 21
		;
		((P3 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 24: // STATE 28
		;
	/* 0 */	((P3 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 25: // STATE 29
		;
		now.slot_cb = trpt->bup.oval;
		;
		goto R999;

	case 26: // STATE 30
		;
		((P3 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 27: // STATE 33
		;
		((P3 *)_this)->r = trpt->bup.ovals[1];
		((P3 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 28: // STATE 39
		;
		((P3 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 29: // STATE 43
		goto R999;

	case 30: // STATE 41
		;
		((P3 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 31: // STATE 47
		;
		((P3 *)_this)->r = trpt->bup.ovals[2];
		((P3 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P3 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 32: // STATE 50
		;
		((P3 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 33: // STATE 61
		;
	/* 0 */	((P3 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 34: // STATE 64
		;
	/* 0 */	((P3 *)_this)->seen = trpt->bup.oval;
		;
		;
		goto R999;

	case 35: // STATE 71
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[4] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 36: // STATE 75
		;
		((P3 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 37: // STATE 78
		;
		((P3 *)_this)->r = trpt->bup.ovals[1];
		((P3 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 38: // STATE 81
		;
		now.next[4] = trpt->bup.oval;
		;
		goto R999;

	case 39: // STATE 85
		;
		((P3 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 40: // STATE 89
		goto R999;

	case 41: // STATE 87
		;
		((P3 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 42: // STATE 93
		;
		((P3 *)_this)->r = trpt->bup.ovals[2];
		((P3 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P3 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 43: // STATE 96
		;
		((P3 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 44: // STATE 103
		;
	/* 0 */	((P3 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 45: // STATE 110
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[4] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 46: // STATE 122
		;
		now.done_mask = trpt->bup.oval;
		;
		goto R999;

	case 47: // STATE 124
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC S2 */

	case 48: // STATE 1
		;
		now.before[3] = trpt->bup.oval;
		;
		goto R999;

	case 49: // STATE 2
		;
		((P2 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 50: // STATE 5
		;
		((P2 *)_this)->r = trpt->bup.ovals[1];
		((P2 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 51: // STATE 10
		;
		((P2 *)_this)->ok = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		
	case 52: // STATE 14
		goto R999;

	case 53: // STATE 12
		;
		((P2 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 54: // STATE 18
		;
		((P2 *)_this)->r = trpt->bup.ovals[2];
		((P2 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P2 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 55: // STATE 21
		;
		((P2 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 56: // STATE 28
		;
	/* 0 */	((P2 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 57: // STATE 29
		;
		now.slot_cb = trpt->bup.oval;
		;
		goto R999;

	case 58: // STATE 30
		;
		((P2 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 59: // STATE 33
		;
		((P2 *)_this)->r = trpt->bup.ovals[1];
		((P2 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 60: // STATE 39
		;
		((P2 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 61: // STATE 43
		goto R999;

	case 62: // STATE 41
		;
		((P2 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 63: // STATE 47
		;
		((P2 *)_this)->r = trpt->bup.ovals[2];
		((P2 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P2 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 64: // STATE 50
		;
		((P2 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 65: // STATE 61
		;
	/* 0 */	((P2 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 66: // STATE 64
		;
	/* 0 */	((P2 *)_this)->seen = trpt->bup.oval;
		;
		;
		goto R999;

	case 67: // STATE 71
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[3] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 68: // STATE 75
		;
		((P2 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 69: // STATE 78
		;
		((P2 *)_this)->r = trpt->bup.ovals[1];
		((P2 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 70: // STATE 81
		;
		now.next[3] = trpt->bup.oval;
		;
		goto R999;

	case 71: // STATE 85
		;
		((P2 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 72: // STATE 89
		goto R999;

	case 73: // STATE 87
		;
		((P2 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 74: // STATE 93
		;
		((P2 *)_this)->r = trpt->bup.ovals[2];
		((P2 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P2 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 75: // STATE 96
		;
		((P2 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 76: // STATE 103
		;
	/* 0 */	((P2 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 77: // STATE 110
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[3] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 78: // STATE 122
		;
		now.done_mask = trpt->bup.oval;
		;
		goto R999;

	case 79: // STATE 124
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC S1 */

	case 80: // STATE 1
		;
		now.before[1] = trpt->bup.oval;
		;
		goto R999;

	case 81: // STATE 2
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 82: // STATE 5
		;
		((P1 *)_this)->r = trpt->bup.ovals[1];
		((P1 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 83: // STATE 10
		;
		((P1 *)_this)->ok = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		
	case 84: // STATE 14
		goto R999;

	case 85: // STATE 12
		;
		((P1 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 86: // STATE 18
		;
		((P1 *)_this)->r = trpt->bup.ovals[2];
		((P1 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 87: // STATE 21
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 88: // STATE 28
		;
	/* 0 */	((P1 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 89: // STATE 29
		;
		now.slot_cb = trpt->bup.oval;
		;
		goto R999;

	case 90: // STATE 30
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 91: // STATE 33
		;
		((P1 *)_this)->r = trpt->bup.ovals[1];
		((P1 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 92: // STATE 39
		;
		((P1 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 93: // STATE 43
		goto R999;

	case 94: // STATE 41
		;
		((P1 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 95: // STATE 47
		;
		((P1 *)_this)->r = trpt->bup.ovals[2];
		((P1 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 96: // STATE 50
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 97: // STATE 61
		;
	/* 0 */	((P1 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 98: // STATE 64
		;
	/* 0 */	((P1 *)_this)->seen = trpt->bup.oval;
		;
		;
		goto R999;

	case 99: // STATE 71
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[1] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 100: // STATE 75
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 101: // STATE 78
		;
		((P1 *)_this)->r = trpt->bup.ovals[1];
		((P1 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 102: // STATE 81
		;
		now.next[1] = trpt->bup.oval;
		;
		goto R999;

	case 103: // STATE 85
		;
		((P1 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 104: // STATE 89
		goto R999;

	case 105: // STATE 87
		;
		((P1 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 106: // STATE 93
		;
		((P1 *)_this)->r = trpt->bup.ovals[2];
		((P1 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 107: // STATE 96
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 108: // STATE 103
		;
	/* 0 */	((P1 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 109: // STATE 110
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[1] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 110: // STATE 122
		;
		now.done_mask = trpt->bup.oval;
		;
		goto R999;

	case 111: // STATE 124
		;
		now.before[2] = trpt->bup.oval;
		;
		goto R999;

	case 112: // STATE 125
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 113: // STATE 128
		;
		((P1 *)_this)->r = trpt->bup.ovals[1];
		((P1 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 114: // STATE 133
		;
		((P1 *)_this)->ok = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;
;
		
	case 115: // STATE 137
		goto R999;

	case 116: // STATE 135
		;
		((P1 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 117: // STATE 141
		;
		((P1 *)_this)->r = trpt->bup.ovals[2];
		((P1 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 118: // STATE 144
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 119: // STATE 151
		;
	/* 0 */	((P1 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 120: // STATE 152
		;
		now.slot_cb = trpt->bup.oval;
		;
		goto R999;

	case 121: // STATE 153
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 122: // STATE 156
		;
		((P1 *)_this)->r = trpt->bup.ovals[1];
		((P1 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 123: // STATE 162
		;
		((P1 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 124: // STATE 166
		goto R999;

	case 125: // STATE 164
		;
		((P1 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 126: // STATE 170
		;
		((P1 *)_this)->r = trpt->bup.ovals[2];
		((P1 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 127: // STATE 173
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 128: // STATE 184
		;
	/* 0 */	((P1 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 129: // STATE 187
		;
	/* 0 */	((P1 *)_this)->seen = trpt->bup.oval;
		;
		;
		goto R999;

	case 130: // STATE 194
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[2] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 131: // STATE 198
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 132: // STATE 201
		;
		((P1 *)_this)->r = trpt->bup.ovals[1];
		((P1 *)_this)->seen = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 133: // STATE 204
		;
		now.next[2] = trpt->bup.oval;
		;
		goto R999;

	case 134: // STATE 208
		;
		((P1 *)_this)->ok = trpt->bup.ovals[2];
		now.registered = trpt->bup.ovals[1];
		now.word = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;
;
		
	case 135: // STATE 212
		goto R999;

	case 136: // STATE 210
		;
		((P1 *)_this)->ok = trpt->bup.oval;
		;
		goto R999;

	case 137: // STATE 216
		;
		((P1 *)_this)->r = trpt->bup.ovals[2];
		((P1 *)_this)->seen = trpt->bup.ovals[1];
	/* 0 */	((P1 *)_this)->ok = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 138: // STATE 219
		;
		((P1 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 139: // STATE 226
		;
	/* 0 */	((P1 *)_this)->r = trpt->bup.oval;
		;
		;
		goto R999;

	case 140: // STATE 233
		;
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[2] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 141: // STATE 245
		;
		now.done_mask = trpt->bup.oval;
		;
		goto R999;

	case 142: // STATE 247
		;
		p_restor(II);
		;
		;
		goto R999;

		 /* PROC Resolver */

	case 143: // STATE 1
		;
		((P0 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 144: // STATE 3
		;
		((P0 *)_this)->won = trpt->bup.ovals[1];
	/* 0 */	((P0 *)_this)->old = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 145: // STATE 6
		;
		((P0 *)_this)->seen = trpt->bup.oval;
		;
		goto R999;

	case 146: // STATE 8
		;
		now.word = trpt->bup.oval;
		;
		goto R999;
;
		
	case 147: // STATE 12
		goto R999;
;
		
	case 148: // STATE 10
		goto R999;

	case 149: // STATE 15
		;
		((P0 *)_this)->won = trpt->bup.ovals[2];
	/* 1 */	((P0 *)_this)->old = trpt->bup.ovals[1];
	/* 0 */	((P0 *)_this)->seen = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 150: // STATE 18
		;
		((P0 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 151: // STATE 25
		;
	/* 0 */	((P0 *)_this)->won = trpt->bup.oval;
		;
		;
		goto R999;

	case 152: // STATE 28
		;
		now.winner_kind = trpt->bup.ovals[1];
		now.winners = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 153: // STATE 30
		;
		now.payload = trpt->bup.oval;
		;
		goto R999;

	case 154: // STATE 31
		;
		((P0 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 155: // STATE 33
		;
		((P0 *)_this)->seen = trpt->bup.ovals[1];
		((P0 *)_this)->nw = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 156: // STATE 35
		;
		now.word = trpt->bup.oval;
		;
		goto R999;

	case 157: // STATE 36
		;
	/* 0 */	((P0 *)_this)->nw = trpt->bup.oval;
		;
		;
		goto R999;
;
		
	case 158: // STATE 41
		goto R999;
;
		
	case 159: // STATE 39
		goto R999;
;
		
	case 160: // STATE 45
		goto R999;
;
		
	case 161: // STATE 43
		goto R999;

	case 162: // STATE 48
		;
		((P0 *)_this)->taken = trpt->bup.ovals[1];
	/* 0 */	((P0 *)_this)->seen = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 163: // STATE 51
		;
		((P0 *)_this)->old = trpt->bup.oval;
		;
		goto R999;
;
		;
		;
		;
		
	case 166: // STATE 60
		;
		((P0 *)_this)->cb = trpt->bup.oval;
		;
		goto R999;
;
		;
		
	case 168: // STATE 75
		;
		((P0 *)_this)->lst = trpt->bup.ovals[2];
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[ Index(((P0 *)_this)->cb, 5) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 169: // STATE 75
		;
		((P0 *)_this)->lst = trpt->bup.oval;
		;
		goto R999;

	case 170: // STATE 75
		;
		((P0 *)_this)->lst = trpt->bup.oval;
		;
		goto R999;

	case 171: // STATE 76
		;
		((P0 *)_this)->batch = trpt->bup.oval;
		;
		goto R999;

	case 172: // STATE 81
		;
		((P0 *)_this)->lst = trpt->bup.ovals[3];
		((P0 *)_this)->batch = trpt->bup.ovals[2];
		now.next[ Index(((P0 *)_this)->lst, 5) ] = trpt->bup.ovals[1];
		((P0 *)_this)->nx = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;
;
		;
		
	case 174: // STATE 90
		;
		((P0 *)_this)->nx = trpt->bup.oval;
		;
		goto R999;

	case 175: // STATE 100
		;
		((P0 *)_this)->batch = trpt->bup.ovals[2];
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[ Index(((P0 *)_this)->batch, 5) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 176: // STATE 107
		;
		((P0 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 177: // STATE 110
		;
		((P0 *)_this)->seen = trpt->bup.ovals[2];
		((P0 *)_this)->nw = trpt->bup.ovals[1];
		((P0 *)_this)->lst = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 178: // STATE 112
		;
		now.word = trpt->bup.oval;
		;
		goto R999;

	case 179: // STATE 113
		;
	/* 0 */	((P0 *)_this)->nw = trpt->bup.oval;
		;
		;
		goto R999;
;
		
	case 180: // STATE 118
		goto R999;
;
		
	case 181: // STATE 116
		goto R999;
;
		
	case 182: // STATE 122
		goto R999;
;
		
	case 183: // STATE 120
		goto R999;

	case 184: // STATE 124
		;
	/* 1 */	((P0 *)_this)->old = trpt->bup.ovals[1];
	/* 0 */	((P0 *)_this)->seen = trpt->bup.ovals[0];
		;
		;
		ungrab_ints(trpt->bup.ovals, 2);
		goto R999;

	case 185: // STATE 127
		;
		((P0 *)_this)->old = trpt->bup.oval;
		;
		goto R999;

	case 186: // STATE 133
		;
		((P0 *)_this)->batch = trpt->bup.oval;
		;
		goto R999;

	case 187: // STATE 138
		;
		((P0 *)_this)->lst = trpt->bup.ovals[3];
		((P0 *)_this)->batch = trpt->bup.ovals[2];
		now.next[ Index(((P0 *)_this)->lst, 5) ] = trpt->bup.ovals[1];
		((P0 *)_this)->nx = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 4);
		goto R999;

	case 188: // STATE 147
		;
	/* 0 */	((P0 *)_this)->batch = trpt->bup.oval;
		;
		;
		goto R999;
;
		;
		
	case 190: // STATE 151
		;
		((P0 *)_this)->nx = trpt->bup.oval;
		;
		goto R999;

	case 191: // STATE 161
		;
		((P0 *)_this)->batch = trpt->bup.ovals[2];
		now.ran_mask = trpt->bup.ovals[1];
		now.ran[ Index(((P0 *)_this)->batch, 5) ] = trpt->bup.ovals[0];
		;
		ungrab_ints(trpt->bup.ovals, 3);
		goto R999;

	case 192: // STATE 181
		;
		p_restor(II);
		;
		;
		goto R999;
	}

