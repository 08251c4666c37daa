#define rand	pan_rand
#define pthread_equal(a,b)	((a)==(b))
#if defined(HAS_CODE) && defined(VERBOSE)
	#ifdef BFS_PAR
		bfs_printf("Pr: %d Tr: %d\n", II, t->forw);
	#else
		cpu_printf("Pr: %d Tr: %d\n", II, t->forw);
	#endif
#endif
	switch (t->forw) {
	default: Uerror("bad forward move");
	case 0:	/* if without executable clauses */
		continue;
	case 1: /* generic 'goto' or 'skip' */
		IfNotBlocked
		_m = 3; goto P999;
	case 2: /* generic 'else' */
		IfNotBlocked
		if (trpt->o_pm&1) continue;
		_m = 3; goto P999;

		 /* PROC :init: */
	case 3: // STATE 1 - petal_cell.pml:379 - [(run Resolver(1))] (0:0:0 - 1)
		IfNotBlocked
		reached[4][1] = 1;
		if (!(addproc(II, 1, 0, 1)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 4: // STATE 2 - petal_cell.pml:380 - [(run Resolver(2))] (0:0:0 - 1)
		IfNotBlocked
		reached[4][2] = 1;
		if (!(addproc(II, 1, 0, 2)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 5: // STATE 3 - petal_cell.pml:381 - [(run S1())] (0:0:0 - 1)
		IfNotBlocked
		reached[4][3] = 1;
		if (!(addproc(II, 1, 1, 0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 6: // STATE 4 - petal_cell.pml:382 - [(run S2())] (0:0:0 - 1)
		IfNotBlocked
		reached[4][4] = 1;
		if (!(addproc(II, 1, 2, 0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 7: // STATE 5 - petal_cell.pml:383 - [(run S3())] (0:0:0 - 1)
		IfNotBlocked
		reached[4][5] = 1;
		if (!(addproc(II, 1, 3, 0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 8: // STATE 7 - petal_cell.pml:385 - [((_nr_pr==1))] (0:0:0 - 1)
		IfNotBlocked
		reached[4][7] = 1;
		if (!((((int)now._nr_pr)==1)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 9: // STATE 8 - petal_cell.pml:386 - [assert((winners==1))] (0:0:0 - 1)
		IfNotBlocked
		reached[4][8] = 1;
		spin_assert((((int)now.winners)==1), "(winners==1)", II, tt, t);
		_m = 3; goto P999; /* 0 */
	case 10: // STATE 9 - petal_cell.pml:387 - [c = 1] (0:0:1 - 1)
		IfNotBlocked
		reached[4][9] = 1;
		(trpt+1)->bup.oval = ((int)((P4 *)_this)->c);
		((P4 *)_this)->c = 1;
#ifdef VAR_RANGES
		logval(":init::c", ((int)((P4 *)_this)->c));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 11: // STATE 10 - petal_cell.pml:389 - [((c<=4))] (0:0:0 - 1)
		IfNotBlocked
		reached[4][10] = 1;
		if (!((((int)((P4 *)_this)->c)<=4)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 12: // STATE 11 - petal_cell.pml:389 - [assert((ran[c]==1))] (0:0:0 - 1)
		IfNotBlocked
		reached[4][11] = 1;
		spin_assert((((int)now.ran[ Index(((int)((P4 *)_this)->c), 5) ])==1), "(ran[c]==1)", II, tt, t);
		_m = 3; goto P999; /* 0 */
	case 13: // STATE 12 - petal_cell.pml:389 - [c = (c+1)] (0:0:1 - 1)
		IfNotBlocked
		reached[4][12] = 1;
		(trpt+1)->bup.oval = ((int)((P4 *)_this)->c);
		((P4 *)_this)->c = (((int)((P4 *)_this)->c)+1);
#ifdef VAR_RANGES
		logval(":init::c", ((int)((P4 *)_this)->c));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 14: // STATE 18 - petal_cell.pml:392 - [assert((word==((winner_kind<<2)|2)))] (0:0:0 - 3)
		IfNotBlocked
		reached[4][18] = 1;
		spin_assert((((int)now.word)==((((int)now.winner_kind)<<2)|2)), "(word==((winner_kind<<2)|2))", II, tt, t);
		_m = 3; goto P999; /* 0 */
	case 15: // STATE 19 - petal_cell.pml:393 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[4][19] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC S3 */
	case 16: // STATE 1 - petal_cell.pml:330 - [before[4] = done_mask] (0:0:1 - 1)
		IfNotBlocked
		reached[3][1] = 1;
		(trpt+1)->bup.oval = ((int)now.before[4]);
		now.before[4] = ((int)now.done_mask);
#ifdef VAR_RANGES
		logval("before[4]", ((int)now.before[4]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 17: // STATE 2 - petal_cell.pml:135 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[3][2] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->old);
		((P3 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S3:old", ((int)((P3 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 18: // STATE 3 - petal_cell.pml:137 - [(!((!(((old&2)!=0))&&((old&(4|8))==0))))] (59:0:2 - 1)
		IfNotBlocked
		reached[3][3] = 1;
		if (!( !(( !(((((int)((P3 *)_this)->old)&2)!=0))&&((((int)((P3 *)_this)->old)&(4|8))==0)))))
			continue;
		/* merge: seen = old(59, 4, 59) */
		reached[3][4] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P3 *)_this)->seen);
		((P3 *)_this)->seen = ((int)((P3 *)_this)->old);
#ifdef VAR_RANGES
		logval("S3:seen", ((int)((P3 *)_this)->seen));
#endif
		;
		/* merge: r = 0(59, 5, 59) */
		reached[3][5] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->r);
		((P3 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S3:r", ((int)((P3 *)_this)->r));
#endif
		;
		/* merge: goto :b17(0, 6, 59) */
		reached[3][6] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 19: // STATE 8 - petal_cell.pml:142 - [((word==old))] (22:0:2 - 1)
		IfNotBlocked
		reached[3][8] = 1;
		if (!((((int)now.word)==((int)((P3 *)_this)->old))))
			continue;
		/* merge: word = (old|4)(22, 9, 22) */
		reached[3][9] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P3 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: ok = 1(22, 10, 22) */
		reached[3][10] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->ok);
		((P3 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S3:ok", ((int)((P3 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(22, 14, 22) */
		reached[3][14] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 20: // STATE 14 - petal_cell.pml:145 - [.(goto)] (0:22:0 - 2)
		IfNotBlocked
		reached[3][14] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 21: // STATE 12 - petal_cell.pml:143 - [ok = 0] (0:22:1 - 1)
		IfNotBlocked
		reached[3][12] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->ok);
		((P3 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S3:ok", ((int)((P3 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(22, 14, 22) */
		reached[3][14] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 22: // STATE 16 - petal_cell.pml:147 - [(ok)] (59:0:3 - 1)
		IfNotBlocked
		reached[3][16] = 1;
		if (!(((int)((P3 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P3 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->ok = 0;
		/* merge: seen = (old|4)(59, 17, 59) */
		reached[3][17] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->seen);
		((P3 *)_this)->seen = (((int)((P3 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("S3:seen", ((int)((P3 *)_this)->seen));
#endif
		;
		/* merge: r = 1(59, 18, 59) */
		reached[3][18] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P3 *)_this)->r);
		((P3 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S3:r", ((int)((P3 *)_this)->r));
#endif
		;
		/* merge: goto :b17(0, 19, 59) */
		reached[3][19] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 23: // STATE 21 - petal_cell.pml:148 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[3][21] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->old);
		((P3 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S3:old", ((int)((P3 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 24: // STATE 28 - petal_cell.pml:333 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[3][28] = 1;
		if (!(((int)((P3 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P3 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 25: // STATE 29 - petal_cell.pml:334 - [slot_cb = 4] (0:0:1 - 1)
		IfNotBlocked
		reached[3][29] = 1;
		(trpt+1)->bup.oval = ((int)now.slot_cb);
		now.slot_cb = 4;
#ifdef VAR_RANGES
		logval("slot_cb", ((int)now.slot_cb));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 26: // STATE 30 - petal_cell.pml:155 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[3][30] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->old);
		((P3 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S3:old", ((int)((P3 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 27: // STATE 31 - petal_cell.pml:157 - [(((old&2)!=0))] (120:0:2 - 1)
		IfNotBlocked
		reached[3][31] = 1;
		if (!(((((int)((P3 *)_this)->old)&2)!=0)))
			continue;
		/* merge: seen = old(120, 32, 120) */
		reached[3][32] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P3 *)_this)->seen);
		((P3 *)_this)->seen = ((int)((P3 *)_this)->old);
#ifdef VAR_RANGES
		logval("S3:seen", ((int)((P3 *)_this)->seen));
#endif
		;
		/* merge: r = 0(120, 33, 120) */
		reached[3][33] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->r);
		((P3 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S3:r", ((int)((P3 *)_this)->r));
#endif
		;
		/* merge: goto :b18(0, 34, 120) */
		reached[3][34] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 28: // STATE 36 - petal_cell.pml:162 - [((word==old))] (51:0:3 - 1)
		IfNotBlocked
		reached[3][36] = 1;
		if (!((((int)now.word)==((int)((P3 *)_this)->old))))
			continue;
		/* merge: word = (old|8)(51, 37, 51) */
		reached[3][37] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P3 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<4))(51, 38, 51) */
		reached[3][38] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<4));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(51, 39, 51) */
		reached[3][39] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P3 *)_this)->ok);
		((P3 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S3:ok", ((int)((P3 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(51, 43, 51) */
		reached[3][43] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 29: // STATE 43 - petal_cell.pml:168 - [.(goto)] (0:51:0 - 2)
		IfNotBlocked
		reached[3][43] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 30: // STATE 41 - petal_cell.pml:166 - [ok = 0] (0:51:1 - 1)
		IfNotBlocked
		reached[3][41] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->ok);
		((P3 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S3:ok", ((int)((P3 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(51, 43, 51) */
		reached[3][43] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 31: // STATE 45 - petal_cell.pml:170 - [(ok)] (120:0:3 - 1)
		IfNotBlocked
		reached[3][45] = 1;
		if (!(((int)((P3 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P3 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->ok = 0;
		/* merge: seen = (old|8)(120, 46, 120) */
		reached[3][46] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->seen);
		((P3 *)_this)->seen = (((int)((P3 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("S3:seen", ((int)((P3 *)_this)->seen));
#endif
		;
		/* merge: r = 1(120, 47, 120) */
		reached[3][47] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P3 *)_this)->r);
		((P3 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S3:r", ((int)((P3 *)_this)->r));
#endif
		;
		/* merge: goto :b18(0, 48, 120) */
		reached[3][48] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 32: // STATE 50 - petal_cell.pml:171 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[3][50] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->old);
		((P3 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S3:old", ((int)((P3 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 33: // STATE 61 - petal_cell.pml:339 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[3][61] = 1;
		if (!(((int)((P3 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P3 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 34: // STATE 64 - petal_cell.pml:342 - [(((seen&3)==2))] (0:0:1 - 1)
		IfNotBlocked
		reached[3][64] = 1;
		if (!(((((int)((P3 *)_this)->seen)&3)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.oval = ((P3 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->seen = 0;
		_m = 3; goto P999; /* 0 */
	case 35: // STATE 65 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:122:2 - 1)
		IfNotBlocked
		reached[3][65] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(122, 66, 122) */
		reached[3][66] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[4]==0))(122, 67, 122) */
		reached[3][67] = 1;
		spin_assert((((int)now.ran[4])==0), "(ran[4]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[4])==before[4]))(122, 68, 122) */
		reached[3][68] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[4]))==((int)now.before[4])), "((ran_mask&before[4])==before[4])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(122, 69, 122) */
		reached[3][69] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[4] = (ran[4]+1)(122, 70, 122) */
		reached[3][70] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[4]);
		now.ran[4] = (((int)now.ran[4])+1);
#ifdef VAR_RANGES
		logval("ran[4]", ((int)now.ran[4]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<4))(122, 71, 122) */
		reached[3][71] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<4));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 119, 122) */
		reached[3][119] = 1;
		;
		/* merge: .(goto)(0, 121, 122) */
		reached[3][121] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 36: // STATE 75 - petal_cell.pml:111 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[3][75] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->old);
		((P3 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S3:old", ((int)((P3 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 37: // STATE 76 - petal_cell.pml:113 - [(((old&3)==2))] (115:0:3 - 1)
		IfNotBlocked
		reached[3][76] = 1;
		if (!(((((int)((P3 *)_this)->old)&3)==2)))
			continue;
		/* merge: seen = old(115, 77, 115) */
		reached[3][77] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P3 *)_this)->seen);
		((P3 *)_this)->seen = ((int)((P3 *)_this)->old);
#ifdef VAR_RANGES
		logval("S3:seen", ((int)((P3 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->seen = 0;
		/* merge: r = 0(115, 78, 115) */
		reached[3][78] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->r);
		((P3 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S3:r", ((int)((P3 *)_this)->r));
#endif
		;
		/* merge: goto :b19(0, 79, 115) */
		reached[3][79] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 38: // STATE 81 - petal_cell.pml:116 - [next[4] = (old>>4)] (0:0:1 - 1)
		IfNotBlocked
		reached[3][81] = 1;
		(trpt+1)->bup.oval = ((int)now.next[4]);
		now.next[4] = (((int)((P3 *)_this)->old)>>4);
#ifdef VAR_RANGES
		logval("next[4]", ((int)now.next[4]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 39: // STATE 82 - petal_cell.pml:119 - [((word==old))] (97:0:3 - 1)
		IfNotBlocked
		reached[3][82] = 1;
		if (!((((int)now.word)==((int)((P3 *)_this)->old))))
			continue;
		/* merge: word = ((4<<4)|(old&15))(97, 83, 97) */
		reached[3][83] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = ((4<<4)|(((int)((P3 *)_this)->old)&15));
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<4))(97, 84, 97) */
		reached[3][84] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<4));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(97, 85, 97) */
		reached[3][85] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P3 *)_this)->ok);
		((P3 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S3:ok", ((int)((P3 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(97, 89, 97) */
		reached[3][89] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 40: // STATE 89 - petal_cell.pml:125 - [.(goto)] (0:97:0 - 2)
		IfNotBlocked
		reached[3][89] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 41: // STATE 87 - petal_cell.pml:123 - [ok = 0] (0:97:1 - 1)
		IfNotBlocked
		reached[3][87] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->ok);
		((P3 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S3:ok", ((int)((P3 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(97, 89, 97) */
		reached[3][89] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 42: // STATE 91 - petal_cell.pml:127 - [(ok)] (115:0:4 - 1)
		IfNotBlocked
		reached[3][91] = 1;
		if (!(((int)((P3 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((P3 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->ok = 0;
		/* merge: seen = old(115, 92, 115) */
		reached[3][92] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P3 *)_this)->seen);
		((P3 *)_this)->seen = ((int)((P3 *)_this)->old);
#ifdef VAR_RANGES
		logval("S3:seen", ((int)((P3 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->seen = 0;
		/* merge: r = 1(115, 93, 115) */
		reached[3][93] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P3 *)_this)->r);
		((P3 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S3:r", ((int)((P3 *)_this)->r));
#endif
		;
		/* merge: goto :b19(0, 94, 115) */
		reached[3][94] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 43: // STATE 96 - petal_cell.pml:128 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[3][96] = 1;
		(trpt+1)->bup.oval = ((int)((P3 *)_this)->old);
		((P3 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S3:old", ((int)((P3 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 44: // STATE 103 - petal_cell.pml:323 - [((r==0))] (0:0:1 - 1)
		IfNotBlocked
		reached[3][103] = 1;
		if (!((((int)((P3 *)_this)->r)==0)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P3 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P3 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 45: // STATE 104 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:122:2 - 1)
		IfNotBlocked
		reached[3][104] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(122, 105, 122) */
		reached[3][105] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[4]==0))(122, 106, 122) */
		reached[3][106] = 1;
		spin_assert((((int)now.ran[4])==0), "(ran[4]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[4])==before[4]))(122, 107, 122) */
		reached[3][107] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[4]))==((int)now.before[4])), "((ran_mask&before[4])==before[4])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(122, 108, 122) */
		reached[3][108] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[4] = (ran[4]+1)(122, 109, 122) */
		reached[3][109] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[4]);
		now.ran[4] = (((int)now.ran[4])+1);
#ifdef VAR_RANGES
		logval("ran[4]", ((int)now.ran[4]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<4))(122, 110, 122) */
		reached[3][110] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<4));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 116, 122) */
		reached[3][116] = 1;
		;
		/* merge: .(goto)(0, 119, 122) */
		reached[3][119] = 1;
		;
		/* merge: .(goto)(0, 121, 122) */
		reached[3][121] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 46: // STATE 122 - petal_cell.pml:346 - [done_mask = (done_mask|(1<<4))] (0:0:1 - 7)
		IfNotBlocked
		reached[3][122] = 1;
		(trpt+1)->bup.oval = ((int)now.done_mask);
		now.done_mask = (((int)now.done_mask)|(1<<4));
#ifdef VAR_RANGES
		logval("done_mask", ((int)now.done_mask));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 47: // STATE 124 - petal_cell.pml:374 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[3][124] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC S2 */
	case 48: // STATE 1 - petal_cell.pml:330 - [before[3] = done_mask] (0:0:1 - 1)
		IfNotBlocked
		reached[2][1] = 1;
		(trpt+1)->bup.oval = ((int)now.before[3]);
		now.before[3] = ((int)now.done_mask);
#ifdef VAR_RANGES
		logval("before[3]", ((int)now.before[3]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 49: // STATE 2 - petal_cell.pml:135 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[2][2] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->old);
		((P2 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S2:old", ((int)((P2 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 50: // STATE 3 - petal_cell.pml:137 - [(!((!(((old&2)!=0))&&((old&(4|8))==0))))] (59:0:2 - 1)
		IfNotBlocked
		reached[2][3] = 1;
		if (!( !(( !(((((int)((P2 *)_this)->old)&2)!=0))&&((((int)((P2 *)_this)->old)&(4|8))==0)))))
			continue;
		/* merge: seen = old(59, 4, 59) */
		reached[2][4] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P2 *)_this)->seen);
		((P2 *)_this)->seen = ((int)((P2 *)_this)->old);
#ifdef VAR_RANGES
		logval("S2:seen", ((int)((P2 *)_this)->seen));
#endif
		;
		/* merge: r = 0(59, 5, 59) */
		reached[2][5] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->r);
		((P2 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S2:r", ((int)((P2 *)_this)->r));
#endif
		;
		/* merge: goto :b14(0, 6, 59) */
		reached[2][6] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 51: // STATE 8 - petal_cell.pml:142 - [((word==old))] (22:0:2 - 1)
		IfNotBlocked
		reached[2][8] = 1;
		if (!((((int)now.word)==((int)((P2 *)_this)->old))))
			continue;
		/* merge: word = (old|4)(22, 9, 22) */
		reached[2][9] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P2 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: ok = 1(22, 10, 22) */
		reached[2][10] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->ok);
		((P2 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S2:ok", ((int)((P2 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(22, 14, 22) */
		reached[2][14] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 52: // STATE 14 - petal_cell.pml:145 - [.(goto)] (0:22:0 - 2)
		IfNotBlocked
		reached[2][14] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 53: // STATE 12 - petal_cell.pml:143 - [ok = 0] (0:22:1 - 1)
		IfNotBlocked
		reached[2][12] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->ok);
		((P2 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S2:ok", ((int)((P2 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(22, 14, 22) */
		reached[2][14] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 54: // STATE 16 - petal_cell.pml:147 - [(ok)] (59:0:3 - 1)
		IfNotBlocked
		reached[2][16] = 1;
		if (!(((int)((P2 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P2 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->ok = 0;
		/* merge: seen = (old|4)(59, 17, 59) */
		reached[2][17] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->seen);
		((P2 *)_this)->seen = (((int)((P2 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("S2:seen", ((int)((P2 *)_this)->seen));
#endif
		;
		/* merge: r = 1(59, 18, 59) */
		reached[2][18] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P2 *)_this)->r);
		((P2 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S2:r", ((int)((P2 *)_this)->r));
#endif
		;
		/* merge: goto :b14(0, 19, 59) */
		reached[2][19] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 55: // STATE 21 - petal_cell.pml:148 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[2][21] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->old);
		((P2 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S2:old", ((int)((P2 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 56: // STATE 28 - petal_cell.pml:333 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[2][28] = 1;
		if (!(((int)((P2 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P2 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 57: // STATE 29 - petal_cell.pml:334 - [slot_cb = 3] (0:0:1 - 1)
		IfNotBlocked
		reached[2][29] = 1;
		(trpt+1)->bup.oval = ((int)now.slot_cb);
		now.slot_cb = 3;
#ifdef VAR_RANGES
		logval("slot_cb", ((int)now.slot_cb));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 58: // STATE 30 - petal_cell.pml:155 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[2][30] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->old);
		((P2 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S2:old", ((int)((P2 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 59: // STATE 31 - petal_cell.pml:157 - [(((old&2)!=0))] (120:0:2 - 1)
		IfNotBlocked
		reached[2][31] = 1;
		if (!(((((int)((P2 *)_this)->old)&2)!=0)))
			continue;
		/* merge: seen = old(120, 32, 120) */
		reached[2][32] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P2 *)_this)->seen);
		((P2 *)_this)->seen = ((int)((P2 *)_this)->old);
#ifdef VAR_RANGES
		logval("S2:seen", ((int)((P2 *)_this)->seen));
#endif
		;
		/* merge: r = 0(120, 33, 120) */
		reached[2][33] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->r);
		((P2 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S2:r", ((int)((P2 *)_this)->r));
#endif
		;
		/* merge: goto :b15(0, 34, 120) */
		reached[2][34] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 60: // STATE 36 - petal_cell.pml:162 - [((word==old))] (51:0:3 - 1)
		IfNotBlocked
		reached[2][36] = 1;
		if (!((((int)now.word)==((int)((P2 *)_this)->old))))
			continue;
		/* merge: word = (old|8)(51, 37, 51) */
		reached[2][37] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P2 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<3))(51, 38, 51) */
		reached[2][38] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<3));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(51, 39, 51) */
		reached[2][39] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P2 *)_this)->ok);
		((P2 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S2:ok", ((int)((P2 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(51, 43, 51) */
		reached[2][43] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 61: // STATE 43 - petal_cell.pml:168 - [.(goto)] (0:51:0 - 2)
		IfNotBlocked
		reached[2][43] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 62: // STATE 41 - petal_cell.pml:166 - [ok = 0] (0:51:1 - 1)
		IfNotBlocked
		reached[2][41] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->ok);
		((P2 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S2:ok", ((int)((P2 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(51, 43, 51) */
		reached[2][43] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 63: // STATE 45 - petal_cell.pml:170 - [(ok)] (120:0:3 - 1)
		IfNotBlocked
		reached[2][45] = 1;
		if (!(((int)((P2 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P2 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->ok = 0;
		/* merge: seen = (old|8)(120, 46, 120) */
		reached[2][46] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->seen);
		((P2 *)_this)->seen = (((int)((P2 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("S2:seen", ((int)((P2 *)_this)->seen));
#endif
		;
		/* merge: r = 1(120, 47, 120) */
		reached[2][47] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P2 *)_this)->r);
		((P2 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S2:r", ((int)((P2 *)_this)->r));
#endif
		;
		/* merge: goto :b15(0, 48, 120) */
		reached[2][48] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 64: // STATE 50 - petal_cell.pml:171 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[2][50] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->old);
		((P2 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S2:old", ((int)((P2 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 65: // STATE 61 - petal_cell.pml:339 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[2][61] = 1;
		if (!(((int)((P2 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P2 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 66: // STATE 64 - petal_cell.pml:342 - [(((seen&3)==2))] (0:0:1 - 1)
		IfNotBlocked
		reached[2][64] = 1;
		if (!(((((int)((P2 *)_this)->seen)&3)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.oval = ((P2 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->seen = 0;
		_m = 3; goto P999; /* 0 */
	case 67: // STATE 65 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:122:2 - 1)
		IfNotBlocked
		reached[2][65] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(122, 66, 122) */
		reached[2][66] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[3]==0))(122, 67, 122) */
		reached[2][67] = 1;
		spin_assert((((int)now.ran[3])==0), "(ran[3]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[3])==before[3]))(122, 68, 122) */
		reached[2][68] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[3]))==((int)now.before[3])), "((ran_mask&before[3])==before[3])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(122, 69, 122) */
		reached[2][69] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[3] = (ran[3]+1)(122, 70, 122) */
		reached[2][70] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[3]);
		now.ran[3] = (((int)now.ran[3])+1);
#ifdef VAR_RANGES
		logval("ran[3]", ((int)now.ran[3]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<3))(122, 71, 122) */
		reached[2][71] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<3));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 119, 122) */
		reached[2][119] = 1;
		;
		/* merge: .(goto)(0, 121, 122) */
		reached[2][121] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 68: // STATE 75 - petal_cell.pml:111 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[2][75] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->old);
		((P2 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S2:old", ((int)((P2 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 69: // STATE 76 - petal_cell.pml:113 - [(((old&3)==2))] (115:0:3 - 1)
		IfNotBlocked
		reached[2][76] = 1;
		if (!(((((int)((P2 *)_this)->old)&3)==2)))
			continue;
		/* merge: seen = old(115, 77, 115) */
		reached[2][77] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P2 *)_this)->seen);
		((P2 *)_this)->seen = ((int)((P2 *)_this)->old);
#ifdef VAR_RANGES
		logval("S2:seen", ((int)((P2 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->seen = 0;
		/* merge: r = 0(115, 78, 115) */
		reached[2][78] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->r);
		((P2 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S2:r", ((int)((P2 *)_this)->r));
#endif
		;
		/* merge: goto :b16(0, 79, 115) */
		reached[2][79] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 70: // STATE 81 - petal_cell.pml:116 - [next[3] = (old>>4)] (0:0:1 - 1)
		IfNotBlocked
		reached[2][81] = 1;
		(trpt+1)->bup.oval = ((int)now.next[3]);
		now.next[3] = (((int)((P2 *)_this)->old)>>4);
#ifdef VAR_RANGES
		logval("next[3]", ((int)now.next[3]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 71: // STATE 82 - petal_cell.pml:119 - [((word==old))] (97:0:3 - 1)
		IfNotBlocked
		reached[2][82] = 1;
		if (!((((int)now.word)==((int)((P2 *)_this)->old))))
			continue;
		/* merge: word = ((3<<4)|(old&15))(97, 83, 97) */
		reached[2][83] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = ((3<<4)|(((int)((P2 *)_this)->old)&15));
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<3))(97, 84, 97) */
		reached[2][84] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<3));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(97, 85, 97) */
		reached[2][85] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P2 *)_this)->ok);
		((P2 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S2:ok", ((int)((P2 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(97, 89, 97) */
		reached[2][89] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 72: // STATE 89 - petal_cell.pml:125 - [.(goto)] (0:97:0 - 2)
		IfNotBlocked
		reached[2][89] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 73: // STATE 87 - petal_cell.pml:123 - [ok = 0] (0:97:1 - 1)
		IfNotBlocked
		reached[2][87] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->ok);
		((P2 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S2:ok", ((int)((P2 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(97, 89, 97) */
		reached[2][89] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 74: // STATE 91 - petal_cell.pml:127 - [(ok)] (115:0:4 - 1)
		IfNotBlocked
		reached[2][91] = 1;
		if (!(((int)((P2 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((P2 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->ok = 0;
		/* merge: seen = old(115, 92, 115) */
		reached[2][92] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P2 *)_this)->seen);
		((P2 *)_this)->seen = ((int)((P2 *)_this)->old);
#ifdef VAR_RANGES
		logval("S2:seen", ((int)((P2 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->seen = 0;
		/* merge: r = 1(115, 93, 115) */
		reached[2][93] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P2 *)_this)->r);
		((P2 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S2:r", ((int)((P2 *)_this)->r));
#endif
		;
		/* merge: goto :b16(0, 94, 115) */
		reached[2][94] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 75: // STATE 96 - petal_cell.pml:128 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[2][96] = 1;
		(trpt+1)->bup.oval = ((int)((P2 *)_this)->old);
		((P2 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S2:old", ((int)((P2 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 76: // STATE 103 - petal_cell.pml:323 - [((r==0))] (0:0:1 - 1)
		IfNotBlocked
		reached[2][103] = 1;
		if (!((((int)((P2 *)_this)->r)==0)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P2 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P2 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 77: // STATE 104 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:122:2 - 1)
		IfNotBlocked
		reached[2][104] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(122, 105, 122) */
		reached[2][105] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[3]==0))(122, 106, 122) */
		reached[2][106] = 1;
		spin_assert((((int)now.ran[3])==0), "(ran[3]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[3])==before[3]))(122, 107, 122) */
		reached[2][107] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[3]))==((int)now.before[3])), "((ran_mask&before[3])==before[3])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(122, 108, 122) */
		reached[2][108] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[3] = (ran[3]+1)(122, 109, 122) */
		reached[2][109] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[3]);
		now.ran[3] = (((int)now.ran[3])+1);
#ifdef VAR_RANGES
		logval("ran[3]", ((int)now.ran[3]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<3))(122, 110, 122) */
		reached[2][110] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<3));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 116, 122) */
		reached[2][116] = 1;
		;
		/* merge: .(goto)(0, 119, 122) */
		reached[2][119] = 1;
		;
		/* merge: .(goto)(0, 121, 122) */
		reached[2][121] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 78: // STATE 122 - petal_cell.pml:346 - [done_mask = (done_mask|(1<<3))] (0:0:1 - 7)
		IfNotBlocked
		reached[2][122] = 1;
		(trpt+1)->bup.oval = ((int)now.done_mask);
		now.done_mask = (((int)now.done_mask)|(1<<3));
#ifdef VAR_RANGES
		logval("done_mask", ((int)now.done_mask));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 79: // STATE 124 - petal_cell.pml:365 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[2][124] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC S1 */
	case 80: // STATE 1 - petal_cell.pml:330 - [before[1] = done_mask] (0:0:1 - 1)
		IfNotBlocked
		reached[1][1] = 1;
		(trpt+1)->bup.oval = ((int)now.before[1]);
		now.before[1] = ((int)now.done_mask);
#ifdef VAR_RANGES
		logval("before[1]", ((int)now.before[1]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 81: // STATE 2 - petal_cell.pml:135 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][2] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 82: // STATE 3 - petal_cell.pml:137 - [(!((!(((old&2)!=0))&&((old&(4|8))==0))))] (59:0:2 - 1)
		IfNotBlocked
		reached[1][3] = 1;
		if (!( !(( !(((((int)((P1 *)_this)->old)&2)!=0))&&((((int)((P1 *)_this)->old)&(4|8))==0)))))
			continue;
		/* merge: seen = old(59, 4, 59) */
		reached[1][4] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 0(59, 5, 59) */
		reached[1][5] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b8(0, 6, 59) */
		reached[1][6] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 83: // STATE 8 - petal_cell.pml:142 - [((word==old))] (22:0:2 - 1)
		IfNotBlocked
		reached[1][8] = 1;
		if (!((((int)now.word)==((int)((P1 *)_this)->old))))
			continue;
		/* merge: word = (old|4)(22, 9, 22) */
		reached[1][9] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P1 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: ok = 1(22, 10, 22) */
		reached[1][10] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(22, 14, 22) */
		reached[1][14] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 84: // STATE 14 - petal_cell.pml:145 - [.(goto)] (0:22:0 - 2)
		IfNotBlocked
		reached[1][14] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 85: // STATE 12 - petal_cell.pml:143 - [ok = 0] (0:22:1 - 1)
		IfNotBlocked
		reached[1][12] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(22, 14, 22) */
		reached[1][14] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 86: // STATE 16 - petal_cell.pml:147 - [(ok)] (59:0:3 - 1)
		IfNotBlocked
		reached[1][16] = 1;
		if (!(((int)((P1 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->ok = 0;
		/* merge: seen = (old|4)(59, 17, 59) */
		reached[1][17] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = (((int)((P1 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 1(59, 18, 59) */
		reached[1][18] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b8(0, 19, 59) */
		reached[1][19] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 87: // STATE 21 - petal_cell.pml:148 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][21] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 88: // STATE 28 - petal_cell.pml:333 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][28] = 1;
		if (!(((int)((P1 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P1 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 89: // STATE 29 - petal_cell.pml:334 - [slot_cb = 1] (0:0:1 - 1)
		IfNotBlocked
		reached[1][29] = 1;
		(trpt+1)->bup.oval = ((int)now.slot_cb);
		now.slot_cb = 1;
#ifdef VAR_RANGES
		logval("slot_cb", ((int)now.slot_cb));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 90: // STATE 30 - petal_cell.pml:155 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][30] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 91: // STATE 31 - petal_cell.pml:157 - [(((old&2)!=0))] (120:0:2 - 1)
		IfNotBlocked
		reached[1][31] = 1;
		if (!(((((int)((P1 *)_this)->old)&2)!=0)))
			continue;
		/* merge: seen = old(120, 32, 120) */
		reached[1][32] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 0(120, 33, 120) */
		reached[1][33] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b9(0, 34, 120) */
		reached[1][34] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 92: // STATE 36 - petal_cell.pml:162 - [((word==old))] (51:0:3 - 1)
		IfNotBlocked
		reached[1][36] = 1;
		if (!((((int)now.word)==((int)((P1 *)_this)->old))))
			continue;
		/* merge: word = (old|8)(51, 37, 51) */
		reached[1][37] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P1 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<1))(51, 38, 51) */
		reached[1][38] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<1));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(51, 39, 51) */
		reached[1][39] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(51, 43, 51) */
		reached[1][43] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 93: // STATE 43 - petal_cell.pml:168 - [.(goto)] (0:51:0 - 2)
		IfNotBlocked
		reached[1][43] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 94: // STATE 41 - petal_cell.pml:166 - [ok = 0] (0:51:1 - 1)
		IfNotBlocked
		reached[1][41] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(51, 43, 51) */
		reached[1][43] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 95: // STATE 45 - petal_cell.pml:170 - [(ok)] (120:0:3 - 1)
		IfNotBlocked
		reached[1][45] = 1;
		if (!(((int)((P1 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->ok = 0;
		/* merge: seen = (old|8)(120, 46, 120) */
		reached[1][46] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = (((int)((P1 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 1(120, 47, 120) */
		reached[1][47] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b9(0, 48, 120) */
		reached[1][48] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 96: // STATE 50 - petal_cell.pml:171 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][50] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 97: // STATE 61 - petal_cell.pml:339 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][61] = 1;
		if (!(((int)((P1 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P1 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 98: // STATE 64 - petal_cell.pml:342 - [(((seen&3)==2))] (0:0:1 - 1)
		IfNotBlocked
		reached[1][64] = 1;
		if (!(((((int)((P1 *)_this)->seen)&3)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.oval = ((P1 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->seen = 0;
		_m = 3; goto P999; /* 0 */
	case 99: // STATE 65 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:122:2 - 1)
		IfNotBlocked
		reached[1][65] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(122, 66, 122) */
		reached[1][66] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[1]==0))(122, 67, 122) */
		reached[1][67] = 1;
		spin_assert((((int)now.ran[1])==0), "(ran[1]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[1])==before[1]))(122, 68, 122) */
		reached[1][68] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[1]))==((int)now.before[1])), "((ran_mask&before[1])==before[1])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(122, 69, 122) */
		reached[1][69] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[1] = (ran[1]+1)(122, 70, 122) */
		reached[1][70] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[1]);
		now.ran[1] = (((int)now.ran[1])+1);
#ifdef VAR_RANGES
		logval("ran[1]", ((int)now.ran[1]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<1))(122, 71, 122) */
		reached[1][71] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<1));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 119, 122) */
		reached[1][119] = 1;
		;
		/* merge: .(goto)(0, 121, 122) */
		reached[1][121] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 100: // STATE 75 - petal_cell.pml:111 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][75] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 101: // STATE 76 - petal_cell.pml:113 - [(((old&3)==2))] (115:0:3 - 1)
		IfNotBlocked
		reached[1][76] = 1;
		if (!(((((int)((P1 *)_this)->old)&3)==2)))
			continue;
		/* merge: seen = old(115, 77, 115) */
		reached[1][77] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->seen = 0;
		/* merge: r = 0(115, 78, 115) */
		reached[1][78] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b10(0, 79, 115) */
		reached[1][79] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 102: // STATE 81 - petal_cell.pml:116 - [next[1] = (old>>4)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][81] = 1;
		(trpt+1)->bup.oval = ((int)now.next[1]);
		now.next[1] = (((int)((P1 *)_this)->old)>>4);
#ifdef VAR_RANGES
		logval("next[1]", ((int)now.next[1]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 103: // STATE 82 - petal_cell.pml:119 - [((word==old))] (97:0:3 - 1)
		IfNotBlocked
		reached[1][82] = 1;
		if (!((((int)now.word)==((int)((P1 *)_this)->old))))
			continue;
		/* merge: word = ((1<<4)|(old&15))(97, 83, 97) */
		reached[1][83] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = ((1<<4)|(((int)((P1 *)_this)->old)&15));
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<1))(97, 84, 97) */
		reached[1][84] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<1));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(97, 85, 97) */
		reached[1][85] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(97, 89, 97) */
		reached[1][89] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 104: // STATE 89 - petal_cell.pml:125 - [.(goto)] (0:97:0 - 2)
		IfNotBlocked
		reached[1][89] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 105: // STATE 87 - petal_cell.pml:123 - [ok = 0] (0:97:1 - 1)
		IfNotBlocked
		reached[1][87] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(97, 89, 97) */
		reached[1][89] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 106: // STATE 91 - petal_cell.pml:127 - [(ok)] (115:0:4 - 1)
		IfNotBlocked
		reached[1][91] = 1;
		if (!(((int)((P1 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->ok = 0;
		/* merge: seen = old(115, 92, 115) */
		reached[1][92] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->seen = 0;
		/* merge: r = 1(115, 93, 115) */
		reached[1][93] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b10(0, 94, 115) */
		reached[1][94] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 107: // STATE 96 - petal_cell.pml:128 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][96] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 108: // STATE 103 - petal_cell.pml:323 - [((r==0))] (0:0:1 - 1)
		IfNotBlocked
		reached[1][103] = 1;
		if (!((((int)((P1 *)_this)->r)==0)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P1 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 109: // STATE 104 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:122:2 - 1)
		IfNotBlocked
		reached[1][104] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(122, 105, 122) */
		reached[1][105] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[1]==0))(122, 106, 122) */
		reached[1][106] = 1;
		spin_assert((((int)now.ran[1])==0), "(ran[1]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[1])==before[1]))(122, 107, 122) */
		reached[1][107] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[1]))==((int)now.before[1])), "((ran_mask&before[1])==before[1])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(122, 108, 122) */
		reached[1][108] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[1] = (ran[1]+1)(122, 109, 122) */
		reached[1][109] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[1]);
		now.ran[1] = (((int)now.ran[1])+1);
#ifdef VAR_RANGES
		logval("ran[1]", ((int)now.ran[1]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<1))(122, 110, 122) */
		reached[1][110] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<1));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 116, 122) */
		reached[1][116] = 1;
		;
		/* merge: .(goto)(0, 119, 122) */
		reached[1][119] = 1;
		;
		/* merge: .(goto)(0, 121, 122) */
		reached[1][121] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 110: // STATE 122 - petal_cell.pml:346 - [done_mask = (done_mask|(1<<1))] (0:0:1 - 7)
		IfNotBlocked
		reached[1][122] = 1;
		(trpt+1)->bup.oval = ((int)now.done_mask);
		now.done_mask = (((int)now.done_mask)|(1<<1));
#ifdef VAR_RANGES
		logval("done_mask", ((int)now.done_mask));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 111: // STATE 124 - petal_cell.pml:330 - [before[2] = done_mask] (0:0:1 - 1)
		IfNotBlocked
		reached[1][124] = 1;
		(trpt+1)->bup.oval = ((int)now.before[2]);
		now.before[2] = ((int)now.done_mask);
#ifdef VAR_RANGES
		logval("before[2]", ((int)now.before[2]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 112: // STATE 125 - petal_cell.pml:135 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][125] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 113: // STATE 126 - petal_cell.pml:137 - [(!((!(((old&2)!=0))&&((old&(4|8))==0))))] (182:0:2 - 1)
		IfNotBlocked
		reached[1][126] = 1;
		if (!( !(( !(((((int)((P1 *)_this)->old)&2)!=0))&&((((int)((P1 *)_this)->old)&(4|8))==0)))))
			continue;
		/* merge: seen = old(182, 127, 182) */
		reached[1][127] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 0(182, 128, 182) */
		reached[1][128] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b11(0, 129, 182) */
		reached[1][129] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 114: // STATE 131 - petal_cell.pml:142 - [((word==old))] (145:0:2 - 1)
		IfNotBlocked
		reached[1][131] = 1;
		if (!((((int)now.word)==((int)((P1 *)_this)->old))))
			continue;
		/* merge: word = (old|4)(145, 132, 145) */
		reached[1][132] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P1 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: ok = 1(145, 133, 145) */
		reached[1][133] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(145, 137, 145) */
		reached[1][137] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 115: // STATE 137 - petal_cell.pml:145 - [.(goto)] (0:145:0 - 2)
		IfNotBlocked
		reached[1][137] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 116: // STATE 135 - petal_cell.pml:143 - [ok = 0] (0:145:1 - 1)
		IfNotBlocked
		reached[1][135] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(145, 137, 145) */
		reached[1][137] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 117: // STATE 139 - petal_cell.pml:147 - [(ok)] (182:0:3 - 1)
		IfNotBlocked
		reached[1][139] = 1;
		if (!(((int)((P1 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->ok = 0;
		/* merge: seen = (old|4)(182, 140, 182) */
		reached[1][140] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = (((int)((P1 *)_this)->old)|4);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 1(182, 141, 182) */
		reached[1][141] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b11(0, 142, 182) */
		reached[1][142] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 118: // STATE 144 - petal_cell.pml:148 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][144] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 119: // STATE 151 - petal_cell.pml:333 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][151] = 1;
		if (!(((int)((P1 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P1 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 120: // STATE 152 - petal_cell.pml:334 - [slot_cb = 2] (0:0:1 - 1)
		IfNotBlocked
		reached[1][152] = 1;
		(trpt+1)->bup.oval = ((int)now.slot_cb);
		now.slot_cb = 2;
#ifdef VAR_RANGES
		logval("slot_cb", ((int)now.slot_cb));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 121: // STATE 153 - petal_cell.pml:155 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][153] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 122: // STATE 154 - petal_cell.pml:157 - [(((old&2)!=0))] (243:0:2 - 1)
		IfNotBlocked
		reached[1][154] = 1;
		if (!(((((int)((P1 *)_this)->old)&2)!=0)))
			continue;
		/* merge: seen = old(243, 155, 243) */
		reached[1][155] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 0(243, 156, 243) */
		reached[1][156] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b12(0, 157, 243) */
		reached[1][157] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 123: // STATE 159 - petal_cell.pml:162 - [((word==old))] (174:0:3 - 1)
		IfNotBlocked
		reached[1][159] = 1;
		if (!((((int)now.word)==((int)((P1 *)_this)->old))))
			continue;
		/* merge: word = (old|8)(174, 160, 174) */
		reached[1][160] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = (((int)((P1 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<2))(174, 161, 174) */
		reached[1][161] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<2));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(174, 162, 174) */
		reached[1][162] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(174, 166, 174) */
		reached[1][166] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 124: // STATE 166 - petal_cell.pml:168 - [.(goto)] (0:174:0 - 2)
		IfNotBlocked
		reached[1][166] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 125: // STATE 164 - petal_cell.pml:166 - [ok = 0] (0:174:1 - 1)
		IfNotBlocked
		reached[1][164] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(174, 166, 174) */
		reached[1][166] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 126: // STATE 168 - petal_cell.pml:170 - [(ok)] (243:0:3 - 1)
		IfNotBlocked
		reached[1][168] = 1;
		if (!(((int)((P1 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->ok = 0;
		/* merge: seen = (old|8)(243, 169, 243) */
		reached[1][169] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = (((int)((P1 *)_this)->old)|8);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		/* merge: r = 1(243, 170, 243) */
		reached[1][170] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b12(0, 171, 243) */
		reached[1][171] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 127: // STATE 173 - petal_cell.pml:171 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][173] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 128: // STATE 184 - petal_cell.pml:339 - [(r)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][184] = 1;
		if (!(((int)((P1 *)_this)->r)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P1 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 129: // STATE 187 - petal_cell.pml:342 - [(((seen&3)==2))] (0:0:1 - 1)
		IfNotBlocked
		reached[1][187] = 1;
		if (!(((((int)((P1 *)_this)->seen)&3)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.oval = ((P1 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->seen = 0;
		_m = 3; goto P999; /* 0 */
	case 130: // STATE 188 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:245:2 - 1)
		IfNotBlocked
		reached[1][188] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(245, 189, 245) */
		reached[1][189] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[2]==0))(245, 190, 245) */
		reached[1][190] = 1;
		spin_assert((((int)now.ran[2])==0), "(ran[2]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[2])==before[2]))(245, 191, 245) */
		reached[1][191] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[2]))==((int)now.before[2])), "((ran_mask&before[2])==before[2])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(245, 192, 245) */
		reached[1][192] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[2] = (ran[2]+1)(245, 193, 245) */
		reached[1][193] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[2]);
		now.ran[2] = (((int)now.ran[2])+1);
#ifdef VAR_RANGES
		logval("ran[2]", ((int)now.ran[2]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<2))(245, 194, 245) */
		reached[1][194] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<2));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 242, 245) */
		reached[1][242] = 1;
		;
		/* merge: .(goto)(0, 244, 245) */
		reached[1][244] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 131: // STATE 198 - petal_cell.pml:111 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][198] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 132: // STATE 199 - petal_cell.pml:113 - [(((old&3)==2))] (238:0:3 - 1)
		IfNotBlocked
		reached[1][199] = 1;
		if (!(((((int)((P1 *)_this)->old)&3)==2)))
			continue;
		/* merge: seen = old(238, 200, 238) */
		reached[1][200] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->seen = 0;
		/* merge: r = 0(238, 201, 238) */
		reached[1][201] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 0;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b13(0, 202, 238) */
		reached[1][202] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 133: // STATE 204 - petal_cell.pml:116 - [next[2] = (old>>4)] (0:0:1 - 1)
		IfNotBlocked
		reached[1][204] = 1;
		(trpt+1)->bup.oval = ((int)now.next[2]);
		now.next[2] = (((int)((P1 *)_this)->old)>>4);
#ifdef VAR_RANGES
		logval("next[2]", ((int)now.next[2]));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 134: // STATE 205 - petal_cell.pml:119 - [((word==old))] (220:0:3 - 1)
		IfNotBlocked
		reached[1][205] = 1;
		if (!((((int)now.word)==((int)((P1 *)_this)->old))))
			continue;
		/* merge: word = ((2<<4)|(old&15))(220, 206, 220) */
		reached[1][206] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.word);
		now.word = ((2<<4)|(((int)((P1 *)_this)->old)&15));
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: registered = (registered|(1<<2))(220, 207, 220) */
		reached[1][207] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.registered);
		now.registered = (((int)now.registered)|(1<<2));
#ifdef VAR_RANGES
		logval("registered", ((int)now.registered));
#endif
		;
		/* merge: ok = 1(220, 208, 220) */
		reached[1][208] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 1;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(220, 212, 220) */
		reached[1][212] = 1;
		;
		_m = 3; goto P999; /* 4 */
	case 135: // STATE 212 - petal_cell.pml:125 - [.(goto)] (0:220:0 - 2)
		IfNotBlocked
		reached[1][212] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 136: // STATE 210 - petal_cell.pml:123 - [ok = 0] (0:220:1 - 1)
		IfNotBlocked
		reached[1][210] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->ok);
		((P1 *)_this)->ok = 0;
#ifdef VAR_RANGES
		logval("S1:ok", ((int)((P1 *)_this)->ok));
#endif
		;
		/* merge: .(goto)(220, 212, 220) */
		reached[1][212] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 137: // STATE 214 - petal_cell.pml:127 - [(ok)] (238:0:4 - 1)
		IfNotBlocked
		reached[1][214] = 1;
		if (!(((int)((P1 *)_this)->ok)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: ok */  (trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((P1 *)_this)->ok;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->ok = 0;
		/* merge: seen = old(238, 215, 238) */
		reached[1][215] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P1 *)_this)->seen);
		((P1 *)_this)->seen = ((int)((P1 *)_this)->old);
#ifdef VAR_RANGES
		logval("S1:seen", ((int)((P1 *)_this)->seen));
#endif
		;
		if (TstOnly) return 1; /* TT */
		/* dead 2: seen */  
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->seen = 0;
		/* merge: r = 1(238, 216, 238) */
		reached[1][216] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P1 *)_this)->r);
		((P1 *)_this)->r = 1;
#ifdef VAR_RANGES
		logval("S1:r", ((int)((P1 *)_this)->r));
#endif
		;
		/* merge: goto :b13(0, 217, 238) */
		reached[1][217] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 138: // STATE 219 - petal_cell.pml:128 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[1][219] = 1;
		(trpt+1)->bup.oval = ((int)((P1 *)_this)->old);
		((P1 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("S1:old", ((int)((P1 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 139: // STATE 226 - petal_cell.pml:323 - [((r==0))] (0:0:1 - 1)
		IfNotBlocked
		reached[1][226] = 1;
		if (!((((int)((P1 *)_this)->r)==0)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: r */  (trpt+1)->bup.oval = ((P1 *)_this)->r;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P1 *)_this)->r = 0;
		_m = 3; goto P999; /* 0 */
	case 140: // STATE 227 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:245:2 - 1)
		IfNotBlocked
		reached[1][227] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(245, 228, 245) */
		reached[1][228] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[2]==0))(245, 229, 245) */
		reached[1][229] = 1;
		spin_assert((((int)now.ran[2])==0), "(ran[2]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[2])==before[2]))(245, 230, 245) */
		reached[1][230] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[2]))==((int)now.before[2])), "((ran_mask&before[2])==before[2])", II, tt, t);
		/* merge: assert((!(1)||((registered&~(ran_mask))==0)))(245, 231, 245) */
		reached[1][231] = 1;
		spin_assert(( !(1)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(1)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[2] = (ran[2]+1)(245, 232, 245) */
		reached[1][232] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[2]);
		now.ran[2] = (((int)now.ran[2])+1);
#ifdef VAR_RANGES
		logval("ran[2]", ((int)now.ran[2]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<2))(245, 233, 245) */
		reached[1][233] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<2));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(0, 239, 245) */
		reached[1][239] = 1;
		;
		/* merge: .(goto)(0, 242, 245) */
		reached[1][242] = 1;
		;
		/* merge: .(goto)(0, 244, 245) */
		reached[1][244] = 1;
		;
		_m = 3; goto P999; /* 9 */
	case 141: // STATE 245 - petal_cell.pml:346 - [done_mask = (done_mask|(1<<2))] (0:0:1 - 7)
		IfNotBlocked
		reached[1][245] = 1;
		(trpt+1)->bup.oval = ((int)now.done_mask);
		now.done_mask = (((int)now.done_mask)|(1<<2));
#ifdef VAR_RANGES
		logval("done_mask", ((int)now.done_mask));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 142: // STATE 247 - petal_cell.pml:360 - [-end-] (0:0:0 - 1)
		IfNotBlocked
		reached[1][247] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */

		 /* PROC Resolver */
	case 143: // STATE 1 - petal_cell.pml:178 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[0][1] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->old);
		((P0 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("Resolver:old", ((int)((P0 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 144: // STATE 2 - petal_cell.pml:180 - [(((old&3)!=0))] (179:0:2 - 1)
		IfNotBlocked
		reached[0][2] = 1;
		if (!(((((int)((P0 *)_this)->old)&3)!=0)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: old */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P0 *)_this)->old;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->old = 0;
		/* merge: won = 0(0, 3, 179) */
		reached[0][3] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P0 *)_this)->won);
		((P0 *)_this)->won = 0;
#ifdef VAR_RANGES
		logval("Resolver:won", ((int)((P0 *)_this)->won));
#endif
		;
		/* merge: goto :b0(0, 4, 179) */
		reached[0][4] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 145: // STATE 6 - petal_cell.pml:183 - [seen = word] (0:0:1 - 1)
		IfNotBlocked
		reached[0][6] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->seen);
		((P0 *)_this)->seen = ((int)now.word);
#ifdef VAR_RANGES
		logval("Resolver:seen", ((int)((P0 *)_this)->seen));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 146: // STATE 7 - petal_cell.pml:185 - [((seen==old))] (19:0:1 - 1)
		IfNotBlocked
		reached[0][7] = 1;
		if (!((((int)((P0 *)_this)->seen)==((int)((P0 *)_this)->old))))
			continue;
		/* merge: word = (old|1)(19, 8, 19) */
		reached[0][8] = 1;
		(trpt+1)->bup.oval = ((int)now.word);
		now.word = (((int)((P0 *)_this)->old)|1);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		/* merge: .(goto)(19, 12, 19) */
		reached[0][12] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 147: // STATE 12 - petal_cell.pml:188 - [.(goto)] (0:19:0 - 2)
		IfNotBlocked
		reached[0][12] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 148: // STATE 10 - petal_cell.pml:186 - [(1)] (19:0:0 - 1)
		IfNotBlocked
		reached[0][10] = 1;
		if (!(1))
			continue;
		/* merge: .(goto)(19, 12, 19) */
		reached[0][12] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 149: // STATE 14 - petal_cell.pml:190 - [((seen==old))] (179:0:3 - 1)
		IfNotBlocked
		reached[0][14] = 1;
		if (!((((int)((P0 *)_this)->seen)==((int)((P0 *)_this)->old))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((P0 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->seen = 0;
		if (TstOnly) return 1; /* TT */
		/* dead 1: old */  (trpt+1)->bup.ovals[1] = ((P0 *)_this)->old;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->old = 0;
		/* merge: won = 1(0, 15, 179) */
		reached[0][15] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->won);
		((P0 *)_this)->won = 1;
#ifdef VAR_RANGES
		logval("Resolver:won", ((int)((P0 *)_this)->won));
#endif
		;
		/* merge: goto :b0(0, 16, 179) */
		reached[0][16] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 150: // STATE 18 - petal_cell.pml:191 - [old = seen] (0:0:1 - 1)
		IfNotBlocked
		reached[0][18] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->old);
		((P0 *)_this)->old = ((int)((P0 *)_this)->seen);
#ifdef VAR_RANGES
		logval("Resolver:old", ((int)((P0 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 151: // STATE 25 - petal_cell.pml:284 - [(won)] (0:0:1 - 1)
		IfNotBlocked
		reached[0][25] = 1;
		if (!(((int)((P0 *)_this)->won)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: won */  (trpt+1)->bup.oval = ((P0 *)_this)->won;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->won = 0;
		_m = 3; goto P999; /* 0 */
	case 152: // STATE 26 - petal_cell.pml:285 - [winners = (winners+1)] (0:30:2 - 1)
		IfNotBlocked
		reached[0][26] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)now.winners);
		now.winners = (((int)now.winners)+1);
#ifdef VAR_RANGES
		logval("winners", ((int)now.winners));
#endif
		;
		/* merge: assert((winners==1))(30, 27, 30) */
		reached[0][27] = 1;
		spin_assert((((int)now.winners)==1), "(winners==1)", II, tt, t);
		/* merge: winner_kind = kind(30, 28, 30) */
		reached[0][28] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.winner_kind);
		now.winner_kind = ((int)((P0 *)_this)->kind);
#ifdef VAR_RANGES
		logval("winner_kind", ((int)now.winner_kind));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 153: // STATE 30 - petal_cell.pml:286 - [payload = kind] (0:0:1 - 1)
		IfNotBlocked
		reached[0][30] = 1;
		(trpt+1)->bup.oval = ((int)now.payload);
		now.payload = ((int)((P0 *)_this)->kind);
#ifdef VAR_RANGES
		logval("payload", ((int)now.payload));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 154: // STATE 31 - petal_cell.pml:199 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[0][31] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->old);
		((P0 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("Resolver:old", ((int)((P0 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 155: // STATE 32 - petal_cell.pml:202 - [nw = ((kind<<2)|( (((!(((old&2)!=0))&&((old&8)!=0))||((old>>4)!=0))) -> (3) : (2) ))] (0:44:2 - 1)
		IfNotBlocked
		reached[0][32] = 1;
		(trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((int)((P0 *)_this)->nw);
		((P0 *)_this)->nw = ((((int)((P0 *)_this)->kind)<<2)|( ((( !(((((int)((P0 *)_this)->old)&2)!=0))&&((((int)((P0 *)_this)->old)&8)!=0))||((((int)((P0 *)_this)->old)>>4)!=0))) ? (3) : (2) ));
#ifdef VAR_RANGES
		logval("Resolver:nw", ((int)((P0 *)_this)->nw));
#endif
		;
		/* merge: seen = word(44, 33, 44) */
		reached[0][33] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P0 *)_this)->seen);
		((P0 *)_this)->seen = ((int)now.word);
#ifdef VAR_RANGES
		logval("Resolver:seen", ((int)((P0 *)_this)->seen));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 156: // STATE 34 - petal_cell.pml:205 - [((seen==old))] (40:0:1 - 1)
		IfNotBlocked
		reached[0][34] = 1;
		if (!((((int)((P0 *)_this)->seen)==((int)((P0 *)_this)->old))))
			continue;
		/* merge: word = nw(0, 35, 40) */
		reached[0][35] = 1;
		(trpt+1)->bup.oval = ((int)now.word);
		now.word = ((int)((P0 *)_this)->nw);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 157: // STATE 36 - petal_cell.pml:205 - [(((nw&3)==2))] (52:0:1 - 1)
		IfNotBlocked
		reached[0][36] = 1;
		if (!(((((int)((P0 *)_this)->nw)&3)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: nw */  (trpt+1)->bup.oval = ((P0 *)_this)->nw;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->nw = 0;
		/* merge: assert(((registered&~(ran_mask))==0))(52, 37, 52) */
		reached[0][37] = 1;
		spin_assert(((((int)now.registered)& ~(((int)now.ran_mask)))==0), "((registered& ~(ran_mask))==0)", II, tt, t);
		/* merge: .(goto)(52, 41, 52) */
		reached[0][41] = 1;
		;
		/* merge: .(goto)(52, 45, 52) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 158: // STATE 41 - petal_cell.pml:206 - [.(goto)] (0:52:0 - 2)
		IfNotBlocked
		reached[0][41] = 1;
		;
		/* merge: .(goto)(52, 45, 52) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 159: // STATE 39 - petal_cell.pml:205 - [(1)] (52:0:0 - 1)
		IfNotBlocked
		reached[0][39] = 1;
		if (!(1))
			continue;
		/* merge: .(goto)(52, 41, 52) */
		reached[0][41] = 1;
		;
		/* merge: .(goto)(52, 45, 52) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 160: // STATE 45 - petal_cell.pml:208 - [.(goto)] (0:52:0 - 2)
		IfNotBlocked
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 161: // STATE 43 - petal_cell.pml:206 - [(1)] (52:0:0 - 1)
		IfNotBlocked
		reached[0][43] = 1;
		if (!(1))
			continue;
		/* merge: .(goto)(52, 45, 52) */
		reached[0][45] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 162: // STATE 47 - petal_cell.pml:210 - [((seen==old))] (175:0:2 - 1)
		IfNotBlocked
		reached[0][47] = 1;
		if (!((((int)((P0 *)_this)->seen)==((int)((P0 *)_this)->old))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P0 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->seen = 0;
		/* merge: taken = old(0, 48, 175) */
		reached[0][48] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P0 *)_this)->taken);
		((P0 *)_this)->taken = ((int)((P0 *)_this)->old);
#ifdef VAR_RANGES
		logval("Resolver:taken", ((int)((P0 *)_this)->taken));
#endif
		;
		/* merge: goto :b1(0, 49, 175) */
		reached[0][49] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 163: // STATE 51 - petal_cell.pml:211 - [old = seen] (0:0:1 - 1)
		IfNotBlocked
		reached[0][51] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->old);
		((P0 *)_this)->old = ((int)((P0 *)_this)->seen);
#ifdef VAR_RANGES
		logval("Resolver:old", ((int)((P0 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 164: // STATE 58 - petal_cell.pml:289 - [(((!(((taken&2)!=0))&&((taken&8)!=0))||((taken>>4)!=0)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][58] = 1;
		if (!((( !(((((int)((P0 *)_this)->taken)&2)!=0))&&((((int)((P0 *)_this)->taken)&8)!=0))||((((int)((P0 *)_this)->taken)>>4)!=0))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 165: // STATE 59 - petal_cell.pml:292 - [((!(((taken&2)!=0))&&((taken&8)!=0)))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][59] = 1;
		if (!(( !(((((int)((P0 *)_this)->taken)&2)!=0))&&((((int)((P0 *)_this)->taken)&8)!=0))))
			continue;
		_m = 3; goto P999; /* 0 */
	case 166: // STATE 60 - petal_cell.pml:292 - [cb = slot_cb] (0:0:1 - 1)
		IfNotBlocked
		reached[0][60] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->cb);
		((P0 *)_this)->cb = ((int)now.slot_cb);
#ifdef VAR_RANGES
		logval("Resolver:cb", ((int)((P0 *)_this)->cb));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 167: // STATE 61 - petal_cell.pml:292 - [assert((cb!=0))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][61] = 1;
		spin_assert((((int)((P0 *)_this)->cb)!=0), "(cb!=0)", II, tt, t);
		_m = 3; goto P999; /* 0 */
	case 168: // STATE 62 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:88:3 - 1)
		IfNotBlocked
		reached[0][62] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(88, 63, 88) */
		reached[0][63] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[cb]==0))(88, 64, 88) */
		reached[0][64] = 1;
		spin_assert((((int)now.ran[ Index(((int)((P0 *)_this)->cb), 5) ])==0), "(ran[cb]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[cb])==before[cb]))(88, 65, 88) */
		reached[0][65] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[ Index(((int)((P0 *)_this)->cb), 5) ]))==((int)now.before[ Index(((int)((P0 *)_this)->cb), 5) ])), "((ran_mask&before[cb])==before[cb])", II, tt, t);
		/* merge: assert((!(0)||((registered&~(ran_mask))==0)))(88, 66, 88) */
		reached[0][66] = 1;
		spin_assert(( !(0)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(0)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[cb] = (ran[cb]+1)(88, 67, 88) */
		reached[0][67] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[ Index(((int)((P0 *)_this)->cb), 5) ]);
		now.ran[ Index(((P0 *)_this)->cb, 5) ] = (((int)now.ran[ Index(((int)((P0 *)_this)->cb), 5) ])+1);
#ifdef VAR_RANGES
		logval("ran[Resolver:cb]", ((int)now.ran[ Index(((int)((P0 *)_this)->cb), 5) ]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<cb))(88, 68, 88) */
		reached[0][68] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<((int)((P0 *)_this)->cb)));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: .(goto)(88, 74, 88) */
		reached[0][74] = 1;
		;
		/* merge: lst = (taken>>4)(88, 75, 88) */
		reached[0][75] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->lst);
		((P0 *)_this)->lst = (((int)((P0 *)_this)->taken)>>4);
#ifdef VAR_RANGES
		logval("Resolver:lst", ((int)((P0 *)_this)->lst));
#endif
		;
		_m = 3; goto P999; /* 8 */
	case 169: // STATE 72 - petal_cell.pml:293 - [(1)] (88:0:1 - 1)
		IfNotBlocked
		reached[0][72] = 1;
		if (!(1))
			continue;
		/* merge: .(goto)(88, 74, 88) */
		reached[0][74] = 1;
		;
		/* merge: lst = (taken>>4)(88, 75, 88) */
		reached[0][75] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->lst);
		((P0 *)_this)->lst = (((int)((P0 *)_this)->taken)>>4);
#ifdef VAR_RANGES
		logval("Resolver:lst", ((int)((P0 *)_this)->lst));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 170: // STATE 75 - petal_cell.pml:295 - [lst = (taken>>4)] (0:88:1 - 3)
		IfNotBlocked
		reached[0][75] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->lst);
		((P0 *)_this)->lst = (((int)((P0 *)_this)->taken)>>4);
#ifdef VAR_RANGES
		logval("Resolver:lst", ((int)((P0 *)_this)->lst));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 171: // STATE 76 - petal_cell.pml:240 - [batch = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[0][76] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->batch);
		((P0 *)_this)->batch = 0;
#ifdef VAR_RANGES
		logval("Resolver:batch", ((int)((P0 *)_this)->batch));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 172: // STATE 77 - petal_cell.pml:242 - [((lst!=0))] (84:0:4 - 1)
		IfNotBlocked
		reached[0][77] = 1;
		if (!((((int)((P0 *)_this)->lst)!=0)))
			continue;
		/* merge: nx = next[lst](84, 78, 84) */
		reached[0][78] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)((P0 *)_this)->nx);
		((P0 *)_this)->nx = ((int)now.next[ Index(((int)((P0 *)_this)->lst), 5) ]);
#ifdef VAR_RANGES
		logval("Resolver:nx", ((int)((P0 *)_this)->nx));
#endif
		;
		/* merge: next[lst] = batch(84, 79, 84) */
		reached[0][79] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.next[ Index(((int)((P0 *)_this)->lst), 5) ]);
		now.next[ Index(((P0 *)_this)->lst, 5) ] = ((int)((P0 *)_this)->batch);
#ifdef VAR_RANGES
		logval("next[Resolver:lst]", ((int)now.next[ Index(((int)((P0 *)_this)->lst), 5) ]));
#endif
		;
		/* merge: batch = lst(84, 80, 84) */
		reached[0][80] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->batch);
		((P0 *)_this)->batch = ((int)((P0 *)_this)->lst);
#ifdef VAR_RANGES
		logval("Resolver:batch", ((int)((P0 *)_this)->batch));
#endif
		;
		/* merge: lst = nx(84, 81, 84) */
		reached[0][81] = 1;
		(trpt+1)->bup.ovals[3] = ((int)((P0 *)_this)->lst);
		((P0 *)_this)->lst = ((int)((P0 *)_this)->nx);
#ifdef VAR_RANGES
		logval("Resolver:lst", ((int)((P0 *)_this)->lst));
#endif
		;
		/* merge: .(goto)(0, 85, 84) */
		reached[0][85] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 173: // STATE 89 - petal_cell.pml:272 - [((batch!=0))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][89] = 1;
		if (!((((int)((P0 *)_this)->batch)!=0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 174: // STATE 90 - petal_cell.pml:272 - [nx = next[batch]] (0:0:1 - 1)
		IfNotBlocked
		reached[0][90] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->nx);
		((P0 *)_this)->nx = ((int)now.next[ Index(((int)((P0 *)_this)->batch), 5) ]);
#ifdef VAR_RANGES
		logval("Resolver:nx", ((int)((P0 *)_this)->nx));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 175: // STATE 91 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:103:3 - 1)
		IfNotBlocked
		reached[0][91] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(103, 92, 103) */
		reached[0][92] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[batch]==0))(103, 93, 103) */
		reached[0][93] = 1;
		spin_assert((((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ])==0), "(ran[batch]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[batch])==before[batch]))(103, 94, 103) */
		reached[0][94] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[ Index(((int)((P0 *)_this)->batch), 5) ]))==((int)now.before[ Index(((int)((P0 *)_this)->batch), 5) ])), "((ran_mask&before[batch])==before[batch])", II, tt, t);
		/* merge: assert((!(0)||((registered&~(ran_mask))==0)))(103, 95, 103) */
		reached[0][95] = 1;
		spin_assert(( !(0)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(0)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[batch] = (ran[batch]+1)(103, 96, 103) */
		reached[0][96] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ]);
		now.ran[ Index(((P0 *)_this)->batch, 5) ] = (((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ])+1);
#ifdef VAR_RANGES
		logval("ran[Resolver:batch]", ((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<batch))(103, 97, 103) */
		reached[0][97] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<((int)((P0 *)_this)->batch)));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: batch = nx(103, 100, 103) */
		reached[0][100] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->batch);
		((P0 *)_this)->batch = ((int)((P0 *)_this)->nx);
#ifdef VAR_RANGES
		logval("Resolver:batch", ((int)((P0 *)_this)->batch));
#endif
		;
		/* merge: .(goto)(0, 104, 103) */
		reached[0][104] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 176: // STATE 107 - petal_cell.pml:250 - [old = word] (0:0:1 - 1)
		IfNotBlocked
		reached[0][107] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->old);
		((P0 *)_this)->old = ((int)now.word);
#ifdef VAR_RANGES
		logval("Resolver:old", ((int)((P0 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 177: // STATE 108 - petal_cell.pml:253 - [lst = (old>>4)] (0:121:3 - 1)
		IfNotBlocked
		reached[0][108] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)((P0 *)_this)->lst);
		((P0 *)_this)->lst = (((int)((P0 *)_this)->old)>>4);
#ifdef VAR_RANGES
		logval("Resolver:lst", ((int)((P0 *)_this)->lst));
#endif
		;
		/* merge: nw = ((old&(3<<2))|( ((lst!=0)) -> (3) : (2) ))(121, 109, 121) */
		reached[0][109] = 1;
		(trpt+1)->bup.ovals[1] = ((int)((P0 *)_this)->nw);
		((P0 *)_this)->nw = ((((int)((P0 *)_this)->old)&(3<<2))|( ((((int)((P0 *)_this)->lst)!=0)) ? (3) : (2) ));
#ifdef VAR_RANGES
		logval("Resolver:nw", ((int)((P0 *)_this)->nw));
#endif
		;
		/* merge: seen = word(121, 110, 121) */
		reached[0][110] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->seen);
		((P0 *)_this)->seen = ((int)now.word);
#ifdef VAR_RANGES
		logval("Resolver:seen", ((int)((P0 *)_this)->seen));
#endif
		;
		_m = 3; goto P999; /* 2 */
	case 178: // STATE 111 - petal_cell.pml:257 - [((seen==old))] (117:0:1 - 1)
		IfNotBlocked
		reached[0][111] = 1;
		if (!((((int)((P0 *)_this)->seen)==((int)((P0 *)_this)->old))))
			continue;
		/* merge: word = nw(0, 112, 117) */
		reached[0][112] = 1;
		(trpt+1)->bup.oval = ((int)now.word);
		now.word = ((int)((P0 *)_this)->nw);
#ifdef VAR_RANGES
		logval("word", ((int)now.word));
#endif
		;
		_m = 3; goto P999; /* 1 */
	case 179: // STATE 113 - petal_cell.pml:257 - [(((nw&3)==2))] (128:0:1 - 1)
		IfNotBlocked
		reached[0][113] = 1;
		if (!(((((int)((P0 *)_this)->nw)&3)==2)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: nw */  (trpt+1)->bup.oval = ((P0 *)_this)->nw;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->nw = 0;
		/* merge: assert(((registered&~(ran_mask))==0))(128, 114, 128) */
		reached[0][114] = 1;
		spin_assert(((((int)now.registered)& ~(((int)now.ran_mask)))==0), "((registered& ~(ran_mask))==0)", II, tt, t);
		/* merge: .(goto)(128, 118, 128) */
		reached[0][118] = 1;
		;
		/* merge: .(goto)(128, 122, 128) */
		reached[0][122] = 1;
		;
		_m = 3; goto P999; /* 3 */
	case 180: // STATE 118 - petal_cell.pml:258 - [.(goto)] (0:128:0 - 2)
		IfNotBlocked
		reached[0][118] = 1;
		;
		/* merge: .(goto)(128, 122, 128) */
		reached[0][122] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 181: // STATE 116 - petal_cell.pml:257 - [(1)] (128:0:0 - 1)
		IfNotBlocked
		reached[0][116] = 1;
		if (!(1))
			continue;
		/* merge: .(goto)(128, 118, 128) */
		reached[0][118] = 1;
		;
		/* merge: .(goto)(128, 122, 128) */
		reached[0][122] = 1;
		;
		_m = 3; goto P999; /* 2 */
	case 182: // STATE 122 - petal_cell.pml:260 - [.(goto)] (0:128:0 - 2)
		IfNotBlocked
		reached[0][122] = 1;
		;
		_m = 3; goto P999; /* 0 */
	case 183: // STATE 120 - petal_cell.pml:258 - [(1)] (128:0:0 - 1)
		IfNotBlocked
		reached[0][120] = 1;
		if (!(1))
			continue;
		/* merge: .(goto)(128, 122, 128) */
		reached[0][122] = 1;
		;
		_m = 3; goto P999; /* 1 */
	case 184: // STATE 124 - petal_cell.pml:262 - [((seen==old))] (0:0:2 - 1)
		IfNotBlocked
		reached[0][124] = 1;
		if (!((((int)((P0 *)_this)->seen)==((int)((P0 *)_this)->old))))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: seen */  (trpt+1)->bup.ovals = grab_ints(2);
		(trpt+1)->bup.ovals[0] = ((P0 *)_this)->seen;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->seen = 0;
		if (TstOnly) return 1; /* TT */
		/* dead 1: old */  (trpt+1)->bup.ovals[1] = ((P0 *)_this)->old;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->old = 0;
		_m = 3; goto P999; /* 0 */
	case 185: // STATE 127 - petal_cell.pml:263 - [old = seen] (0:0:1 - 1)
		IfNotBlocked
		reached[0][127] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->old);
		((P0 *)_this)->old = ((int)((P0 *)_this)->seen);
#ifdef VAR_RANGES
		logval("Resolver:old", ((int)((P0 *)_this)->old));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 186: // STATE 133 - petal_cell.pml:240 - [batch = 0] (0:0:1 - 1)
		IfNotBlocked
		reached[0][133] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->batch);
		((P0 *)_this)->batch = 0;
#ifdef VAR_RANGES
		logval("Resolver:batch", ((int)((P0 *)_this)->batch));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 187: // STATE 134 - petal_cell.pml:242 - [((lst!=0))] (141:0:4 - 1)
		IfNotBlocked
		reached[0][134] = 1;
		if (!((((int)((P0 *)_this)->lst)!=0)))
			continue;
		/* merge: nx = next[lst](141, 135, 141) */
		reached[0][135] = 1;
		(trpt+1)->bup.ovals = grab_ints(4);
		(trpt+1)->bup.ovals[0] = ((int)((P0 *)_this)->nx);
		((P0 *)_this)->nx = ((int)now.next[ Index(((int)((P0 *)_this)->lst), 5) ]);
#ifdef VAR_RANGES
		logval("Resolver:nx", ((int)((P0 *)_this)->nx));
#endif
		;
		/* merge: next[lst] = batch(141, 136, 141) */
		reached[0][136] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.next[ Index(((int)((P0 *)_this)->lst), 5) ]);
		now.next[ Index(((P0 *)_this)->lst, 5) ] = ((int)((P0 *)_this)->batch);
#ifdef VAR_RANGES
		logval("next[Resolver:lst]", ((int)now.next[ Index(((int)((P0 *)_this)->lst), 5) ]));
#endif
		;
		/* merge: batch = lst(141, 137, 141) */
		reached[0][137] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->batch);
		((P0 *)_this)->batch = ((int)((P0 *)_this)->lst);
#ifdef VAR_RANGES
		logval("Resolver:batch", ((int)((P0 *)_this)->batch));
#endif
		;
		/* merge: lst = nx(141, 138, 141) */
		reached[0][138] = 1;
		(trpt+1)->bup.ovals[3] = ((int)((P0 *)_this)->lst);
		((P0 *)_this)->lst = ((int)((P0 *)_this)->nx);
#ifdef VAR_RANGES
		logval("Resolver:lst", ((int)((P0 *)_this)->lst));
#endif
		;
		/* merge: .(goto)(0, 142, 141) */
		reached[0][142] = 1;
		;
		_m = 3; goto P999; /* 5 */
	case 188: // STATE 147 - petal_cell.pml:302 - [((batch==0))] (0:0:1 - 1)
		IfNotBlocked
		reached[0][147] = 1;
		if (!((((int)((P0 *)_this)->batch)==0)))
			continue;
		if (TstOnly) return 1; /* TT */
		/* dead 1: batch */  (trpt+1)->bup.oval = ((P0 *)_this)->batch;
#ifdef HAS_CODE
		if (!readtrail)
#endif
			((P0 *)_this)->batch = 0;
		_m = 3; goto P999; /* 0 */
	case 189: // STATE 150 - petal_cell.pml:272 - [((batch!=0))] (0:0:0 - 1)
		IfNotBlocked
		reached[0][150] = 1;
		if (!((((int)((P0 *)_this)->batch)!=0)))
			continue;
		_m = 3; goto P999; /* 0 */
	case 190: // STATE 151 - petal_cell.pml:272 - [nx = next[batch]] (0:0:1 - 1)
		IfNotBlocked
		reached[0][151] = 1;
		(trpt+1)->bup.oval = ((int)((P0 *)_this)->nx);
		((P0 *)_this)->nx = ((int)now.next[ Index(((int)((P0 *)_this)->batch), 5) ]);
#ifdef VAR_RANGES
		logval("Resolver:nx", ((int)((P0 *)_this)->nx));
#endif
		;
		_m = 3; goto P999; /* 0 */
	case 191: // STATE 152 - petal_cell.pml:95 - [assert(((word&2)!=0))] (0:164:3 - 1)
		IfNotBlocked
		reached[0][152] = 1;
		spin_assert(((((int)now.word)&2)!=0), "((word&2)!=0)", II, tt, t);
		/* merge: assert(((payload!=0)&&(payload==winner_kind)))(164, 153, 164) */
		reached[0][153] = 1;
		spin_assert(((((int)now.payload)!=0)&&(((int)now.payload)==((int)now.winner_kind))), "((payload!=0)&&(payload==winner_kind))", II, tt, t);
		/* merge: assert((ran[batch]==0))(164, 154, 164) */
		reached[0][154] = 1;
		spin_assert((((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ])==0), "(ran[batch]==0)", II, tt, t);
		/* merge: assert(((ran_mask&before[batch])==before[batch]))(164, 155, 164) */
		reached[0][155] = 1;
		spin_assert(((((int)now.ran_mask)&((int)now.before[ Index(((int)((P0 *)_this)->batch), 5) ]))==((int)now.before[ Index(((int)((P0 *)_this)->batch), 5) ])), "((ran_mask&before[batch])==before[batch])", II, tt, t);
		/* merge: assert((!(0)||((registered&~(ran_mask))==0)))(164, 156, 164) */
		reached[0][156] = 1;
		spin_assert(( !(0)||((((int)now.registered)& ~(((int)now.ran_mask)))==0)), "( !(0)||((registered& ~(ran_mask))==0))", II, tt, t);
		/* merge: ran[batch] = (ran[batch]+1)(164, 157, 164) */
		reached[0][157] = 1;
		(trpt+1)->bup.ovals = grab_ints(3);
		(trpt+1)->bup.ovals[0] = ((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ]);
		now.ran[ Index(((P0 *)_this)->batch, 5) ] = (((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ])+1);
#ifdef VAR_RANGES
		logval("ran[Resolver:batch]", ((int)now.ran[ Index(((int)((P0 *)_this)->batch), 5) ]));
#endif
		;
		/* merge: ran_mask = (ran_mask|(1<<batch))(164, 158, 164) */
		reached[0][158] = 1;
		(trpt+1)->bup.ovals[1] = ((int)now.ran_mask);
		now.ran_mask = (((int)now.ran_mask)|(1<<((int)((P0 *)_this)->batch)));
#ifdef VAR_RANGES
		logval("ran_mask", ((int)now.ran_mask));
#endif
		;
		/* merge: batch = nx(164, 161, 164) */
		reached[0][161] = 1;
		(trpt+1)->bup.ovals[2] = ((int)((P0 *)_this)->batch);
		((P0 *)_this)->batch = ((int)((P0 *)_this)->nx);
#ifdef VAR_RANGES
		logval("Resolver:batch", ((int)((P0 *)_this)->batch));
#endif
		;
		/* merge: .(goto)(0, 165, 164) */
		reached[0][165] = 1;
		;
		_m = 3; goto P999; /* 8 */
	case 192: // STATE 181 - petal_cell.pml:317 - [-end-] (0:0:0 - 7)
		IfNotBlocked
		reached[0][181] = 1;
		if (!delproc(1, II)) continue;
		_m = 3; goto P999; /* 0 */
	case  _T5:	/* np_ */
		if (!((!(trpt->o_pm&4) && !(trpt->tau&128))))
			continue;
		/* else fall through */
	case  _T2:	/* true */
		_m = 3; goto P999;
#undef rand
	}

